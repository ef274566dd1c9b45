"""The extreme games of a run: the ones an analyst asks to see first, with the command that replays each.

Every game is a pure function of the manifest, so a game is named by (variant, game index) and
``simharness show`` plays it again. Per variant: the largest comeback, the biggest single loss, the
longest game and the biggest hand (the game package's ``notable_hand``: a yakuman or limit hand).
The comeback and the biggest loss come from the games table's standings facts (``stats.balance.FACTS``,
logged by the engine); a run written before them takes the slow path through the ``hands`` table
(:func:`_comeback`, :func:`_biggest_loss`, the reference the facts are tested against). Ties go to the
earliest game (within a game, to the earliest hand, then the lowest seat), so the selection is the
same however the run was sharded, and a run read chunk by chunk (:class:`ExtremeGames`) gives the
same games as a run read whole.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from enum import Enum
from typing import Any

import polars as pl

from simharness.games import registry
from simharness.report.frames import (
    RunLike,
    game_lengths,
    optional_table,
    players_frame,
    players_per_game,
    variant_names,
)
from simharness.stats.balance import has_facts, standings


class Kind(str, Enum):
    """What makes a game extreme (the value is the JSON ``kind``)."""

    COMEBACK = "comeback"
    BIGGEST_LOSS = "biggest_loss"
    LONGEST = "longest"
    BIGGEST_HAND = "biggest_hand"

    @property
    def heading(self) -> str:
        return {
            Kind.COMEBACK: "largest comeback",
            Kind.BIGGEST_LOSS: "biggest single loss",
            Kind.LONGEST: "longest game",
            Kind.BIGGEST_HAND: "yakuman or limit hand",
        }[self]


def show_command(run_path: str, variant: str, game: int) -> str:
    """The ``simharness show`` command line that replays one game as a page."""
    return f"simharness show {shlex.quote(run_path)} --game {game} --variant {shlex.quote(variant)}"


@dataclass(frozen=True)
class Pick:
    """A candidate: the game, how extreme it is (larger is more), why, in words, and the hand it
    points at (the logs' index, 0 = first; the text counts from 1, as ``simharness show`` does)."""

    game: int
    score: float
    why: str
    hand: int | None = None

    def beats(self, other: Pick | None) -> bool:
        """More extreme, or as extreme and earlier: the same choice in whatever order chunks come."""
        return other is None or (self.score, -self.game) > (other.score, -other.game)


def _top(frame: pl.DataFrame, by: str, *then: str) -> dict[str, Any] | None:
    """The row with the largest ``by`` (the earliest game among equals, then the smallest of each of
    ``then``), or None."""
    if frame.height == 0:
        return None
    column = frame[by]
    # Only rows of the largest value can come first: sort those alone (unless a null or NaN, which
    # sorts before any number, is there).
    if column.null_count() == 0 and not (column.dtype.is_float() and column.is_nan().any()):
        frame = frame.filter(column == column.max())
    keys = [by, "game", *then]
    return frame.sort(keys, descending=[True] + [False] * (len(keys) - 1)).row(0, named=True)


def _tops(frame: pl.DataFrame, by: str, *then: str) -> dict[str, dict[str, Any]]:
    """:func:`_top` of each variant's rows (``variant``), in one pass over ``frame``."""
    if frame.height == 0:
        return {}
    column = frame[by]
    if column.null_count() == 0 and not (column.dtype.is_float() and column.is_nan().any()):
        frame = frame.filter(pl.col(by) == pl.col(by).max().over("variant"))
    keys = [by, "game", *then]
    first = frame.sort(["variant", *keys], descending=[False, True] + [False] * (len(keys) - 1)).unique(
        "variant", keep="first", maintain_order=True
    )
    return {str(r["variant"]): r for r in first.iter_rows(named=True)}


def _who(players: pl.DataFrame, game: int, seat: int) -> str:
    """``seat 2 (efficiency)``: a seat of one game and the strategy that played it."""
    row = players.filter((pl.col("game") == game) & (pl.col("seat") == seat))
    return f"seat {seat} ({row['strategy'][0]})" if row.height else f"seat {seat}"


def _hand_changes(hands: pl.DataFrame, seats: int) -> pl.DataFrame | None:
    """Points won or lost by each seat in each hand (``game, hand, seat, change``).

    ``delta_<seat>`` columns are the changes themselves; running totals are differenced, which
    leaves out each game's first hand (its starting points are not logged).
    """
    delta = [f"delta_{s}" for s in range(seats)]
    if all(c in hands.columns for c in delta):
        return (
            hands.select("game", "hand", *delta)
            .unpivot(index=["game", "hand"], variable_name="seat", value_name="change")
            .with_columns(
                pl.col("seat").str.extract(r"_(\d+)$").cast(pl.Int64), pl.col("change").cast(pl.Float64)
            )
        )
    stand = standings(hands, seats)
    if stand is None:
        return None
    return (
        stand.sort("game", "seat", "hand")
        .select(
            "game",
            "hand",
            "seat",
            (pl.col("points") - pl.col("points").shift(1).over("game", "seat")).alias("change"),
        )
        .drop_nulls("change")
    )


def _comeback(hands: pl.DataFrame, players: pl.DataFrame, seats: int) -> Pick | None:
    """The game whose winner was furthest behind the leader after some hand."""
    stand = standings(hands, seats)
    if stand is None:
        return None
    # Under shared ties a game has several winners: the comeback is the first one's (lowest seat).
    winner = (
        players.filter(pl.col("rank") == 1)
        .group_by("game")
        .agg(pl.col("seat").cast(pl.Int64).min().alias("w"))
    )
    behind = (
        stand.join(winner, on="game")
        .group_by("game", "hand")
        .agg(
            (pl.col("points").max() - pl.col("points").filter(pl.col("seat") == pl.col("w")).first()).alias(
                "d"
            ),
            pl.col("w").first(),
        )
        .sort("d", "hand", descending=[True, False])
        .unique("game", keep="first")
    )
    return _comeback_pick(_top(behind.filter(pl.col("d") > 0), "d"), players)


def _comeback_pick(top: dict[str, Any] | None, players: pl.DataFrame) -> Pick | None:
    """The comeback of ``top`` (``game``, ``hand``, ``d``: the winner's deficit, ``w``: the winner)."""
    if top is None:
        return None
    who = _who(players, top["game"], top["w"])
    why = f"{who} won from {top['d']:g} points behind after hand {top['hand'] + 1}"
    return Pick(top["game"], top["d"], why, top["hand"])


def _loss_pick(top: dict[str, Any] | None, players: pl.DataFrame) -> Pick | None:
    """The biggest loss of ``top`` (``game``, ``hand``, ``seat``, ``loss``)."""
    if top is None:
        return None
    who = _who(players, top["game"], top["seat"])
    return Pick(
        top["game"], top["loss"], f"{who} lost {top['loss']:g} points in hand {top['hand'] + 1}", top["hand"]
    )


def _from_facts(games: pl.DataFrame, players: pl.DataFrame) -> dict[str, dict[Kind, Pick | None]]:
    """Per variant the comeback and the biggest loss of its games from their standings facts."""
    behind = _tops(
        games.filter(pl.col("winner_max_deficit") > 0).select(
            "variant",
            "game",
            d=pl.col("winner_max_deficit").cast(pl.Float64),
            hand=pl.col("winner_max_deficit_hand"),
        ),
        "d",
    )
    lost = _tops(
        games.filter(pl.col("largest_loss") > 0).select(
            "variant",
            "game",
            loss=pl.col("largest_loss").cast(pl.Float64),
            hand=pl.col("largest_loss_hand"),
            seat=pl.col("largest_loss_seat"),
        ),
        "loss",
    )
    out: dict[str, dict[Kind, Pick | None]] = {}
    for v in {*behind, *lost}:
        pv = players.filter(
            (pl.col("variant") == v)
            & pl.col("game").is_in([r["game"] for r in (behind.get(v), lost.get(v)) if r])
        )
        top = behind.get(v)
        if top is not None:
            # The winner as the slow path names it: of the seats ranked first, the lowest.
            first = pv.filter((pl.col("game") == top["game"]) & (pl.col("rank") == 1))
            top["w"] = int(first["seat"].min())  # type: ignore[arg-type]  # a game has a first place
        out[v] = {Kind.COMEBACK: _comeback_pick(top, pv), Kind.BIGGEST_LOSS: _loss_pick(lost.get(v), pv)}
    return out


def _biggest_loss(hands: pl.DataFrame | None, players: pl.DataFrame, seats: int) -> Pick | None:
    changes = _hand_changes(hands, seats) if hands is not None else None
    if changes is not None:
        top = _top(
            changes.with_columns((-pl.col("change")).alias("loss")).filter(pl.col("loss") > 0),
            "loss",
            "hand",
            "seat",
        )
        return _loss_pick(top, players)
    # No hand-level changes: the heaviest loss of a whole game.
    top = _top(players.with_columns((-pl.col("final_points")).alias("loss")), "loss")
    if top is None:
        return None
    who = _who(players, top["game"], top["seat"])
    why = (
        f"{who} finished at {top['final_points']} points, the lowest final score (no points per hand logged)"
    )
    return Pick(top["game"], top["loss"], why)


def candidates(run: RunLike) -> dict[tuple[str, Kind], Pick]:
    """The most extreme game of each (variant, kind) among the games of ``run``, which may be a
    chunk of whole deals of a larger run (see :class:`ExtremeGames`)."""
    players = players_frame(run)
    games = run.table("games")
    fast = has_facts(games.columns)
    notable = registry.notable_hand(run.manifest.game)
    # The hands table is read only for what the games table does not hold.
    hands = optional_table(run, "hands") if notable is not None or not fast else None
    gl = game_lengths(run)
    best_hands = notable(hands) if notable is not None and hands is not None else None
    # Seats per game, for the slow path's standings.
    seats = 0 if fast else players_per_game(players)
    facts = _from_facts(games, players) if fast else {}
    longest, unit = (_tops(gl[0], "length"), gl[1]) if gl is not None else ({}, "")
    out: dict[tuple[str, Kind], Pick] = {}
    for v in variant_names(run, players):
        found: dict[Kind, Pick | None]
        if fast:
            found = facts.get(v, {})
        else:
            pv = players.filter(pl.col("variant") == v)
            hv = hands.filter(pl.col("variant") == v) if hands is not None else None
            found = {
                Kind.COMEBACK: _comeback(hv, pv, seats) if hv is not None else None,
                Kind.BIGGEST_LOSS: _biggest_loss(hv, pv, seats),
            }
        top = longest.get(v)
        if top is not None:
            found[Kind.LONGEST] = Pick(top["game"], top["length"], f"{top['length']:g} {unit}")
        if best_hands is not None:
            mine = best_hands.filter(pl.col("variant") == v).sort("score", "game", descending=[True, False])
            if mine.height:
                found[Kind.BIGGEST_HAND] = Pick(
                    mine["game"][0], mine["score"][0], mine["why"][0], mine["hand"][0]
                )
        out.update({(v, k): pick for k, pick in found.items() if pick is not None})
    return out


class ExtremeGames:
    """The extreme games over chunks of whole deals added in any order (a run read shard by shard):
    per (variant, kind) the most extreme candidate, ties to the earliest game."""

    def __init__(self) -> None:
        self.best: dict[tuple[str, Kind], Pick] = {}

    def add(self, chunk: RunLike) -> None:
        self._keep(candidates(chunk))

    def __iadd__(self, other: ExtremeGames) -> ExtremeGames:
        """Another chunk's picks (``add`` on a fresh one)."""
        self._keep(other.best)
        return self

    def _keep(self, picks: dict[tuple[str, Kind], Pick]) -> None:
        for key, pick in picks.items():
            if pick.beats(self.best.get(key)):
                self.best[key] = pick

    def result(self, run_path: str, variants: list[str]) -> list[dict[str, Any]]:
        """``{kind, title, variant, game, why, command}`` and ``hand`` (the hand as ``why`` and
        ``simharness show`` number it, from 1; absent for a whole game), by variant, then kind in
        :class:`Kind` order."""
        out = []
        for v in variants:
            for kind in Kind:
                pick = self.best.get((v, kind))
                if pick is not None:
                    out.append(
                        {
                            "kind": kind.value,
                            "title": kind.heading,
                            "variant": v,
                            "game": int(pick.game),
                            "why": pick.why,
                            "command": show_command(run_path, v, int(pick.game)),
                            **({"hand": int(pick.hand) + 1} if pick.hand is not None else {}),
                        }
                    )
        return out


def extreme_games(run: RunLike) -> list[dict[str, Any]]:
    """Per variant and :class:`Kind` the selected game: ``{kind, title, variant, game, why, command}``.

    A kind the run cannot show (no hand-level standings, no hands table, no such hand) is left out.
    """
    acc = ExtremeGames()
    acc.add(run)
    return acc.result(str(run.path), variant_names(run, players_frame(run)))
