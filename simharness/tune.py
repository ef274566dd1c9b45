"""``simharness tune``: the numeric knobs of one lineup slot optimised against the rest of the lineup by
SPSA (simultaneous perturbation stochastic approximation, as Fishtest's tuner uses it), then the tuned
knobs confirmed against the starting ones on fresh deals, and written as a strategy script.

Each step ``k`` plays the slot with knobs ``θ + c_k·δ`` and with ``θ − c_k·δ`` (``δ`` a random ±1 per
knob) on the same keyed deals (common random numbers: the two arms differ only by the knobs, so the
difference of their results is mostly the knobs' effect), and moves ``θ`` along the estimated gradient
by ``a_k``. Knobs move in units of their declared range (0 = its minimum, 1 = its maximum), so one step
size suits every knob; integer knobs are played rounded. The objective is standardised by its per-game
spread measured at the first step, so the same gains suit every objective and game.

Everything is a function of the tune's inputs and seed: the deals of step ``k`` are games
``k·n .. k·n + n − 1``, ``δ`` is keyed by (seed, k), and the trajectory is written after every step,
so a killed tune resumes where it stopped and ends where an unbroken one ends.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
from scipy import stats

from simharness import engine, store, tomlfile
from simharness.config import Experiment
from simharness.errors import ConfigError, RunDirError

OBJECTIVES = ("first_place", "final_points")
# Spall's recommended decay exponents and stability constant (share of the steps).
ALPHA, GAMMA, STABILITY = 0.602, 0.101, 0.1
TRAJECTORY = "trajectory.parquet"
MANIFEST = "tune.json"


@dataclass(frozen=True)
class Knob:
    """A numeric knob being tuned: its range and whether it takes integers."""

    name: str
    lo: float
    hi: float
    integer: bool

    def value(self, u: float) -> float | int:
        """The knob's value at ``u`` (0 = its minimum, 1 = its maximum), clipped to the range."""
        x = self.lo + min(1.0, max(0.0, u)) * (self.hi - self.lo)
        return math.floor(x + 0.5) if self.integer else float(x)

    def unit(self, x: float) -> float:
        return (x - self.lo) / (self.hi - self.lo)


def knobs_of(game: str, names: Sequence[str], field_name: str = "--knobs") -> list[Knob]:
    """The declared ranges of the knobs ``names`` of ``game``; a knob that is not numeric with a
    range is refused, naming it."""
    specs = {s.name: s for s in engine.knob_options(game)}
    out = []
    for name in names:
        s = specs.get(name)
        if s is None:
            raise ConfigError(
                f'{game} has no knob "{name}"; expected one of: {", ".join(specs)}', field=field_name
            )
        if s.type not in ("int", "float") or s.min is None or s.max is None or s.max <= s.min:
            raise ConfigError(
                f'knob "{name}" is {s.type}; expected a numeric knob with a range (categorical knobs are '
                "compared by a sweep or variants, not tuned)",
                field=field_name,
            )
        out.append(Knob(name, float(s.min), float(s.max), s.type == "int"))
    return out


@dataclass(frozen=True)
class Gains:
    """SPSA's gain sequences in knob units: ``c_k = c/(k+1)^γ`` (perturbation), ``a_k = a/(k+1+A)^α``
    (step per standardised unit of the objective's gradient)."""

    steps: int
    a: float = 0.05
    c: float = 0.15

    def c_k(self, k: int) -> float:
        return self.c / (k + 1) ** GAMMA

    def a_k(self, k: int) -> float:
        return self.a / (k + 1 + STABILITY * self.steps) ** ALPHA


def _key(seed: int, *parts: object) -> int:
    return int.from_bytes(hashlib.sha256(json.dumps([seed, *parts]).encode()).digest()[:8], "little")


def perturbation(seed: int, step: int, n: int) -> np.ndarray:
    """``δ`` of step ``step``: a keyed random ±1 per knob."""
    return np.random.default_rng(_key(seed, "delta", step)).choice([-1.0, 1.0], size=n)


# One step's play: the objective's per-game values of the slot under θ+ and under θ− (same deals).
Evaluate = Callable[[int, list[float | int], list[float | int]], tuple[np.ndarray, np.ndarray]]


@dataclass
class Trajectory:
    """The rows of a tune so far: one per step."""

    rows: list[dict[str, Any]] = field(default_factory=list)

    def frame(self) -> pl.DataFrame:
        return pl.DataFrame(self.rows)


def spsa(
    knobs: list[Knob],
    start: list[float],
    gains: Gains,
    seed: int,
    evaluate: Evaluate,
    done: Sequence[dict[str, Any]] = (),
    on_step: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Maximises the objective that ``evaluate`` samples, from ``start`` (knob values), for
    ``gains.steps`` steps; ``done`` are the rows of the steps already taken (a resumed tune replays
    none of them). Returns the final point in knob units and every step's row."""
    rows = list(done)
    theta = np.array([k.unit(x) for k, x in zip(knobs, start, strict=True)])
    scale = None
    for row in rows:
        theta = np.array(row["theta_next"])
        scale = row["scale"]
    for k in range(len(rows), gains.steps):
        delta = perturbation(seed, k, len(knobs))
        ck = gains.c_k(k)
        plus = [kn.value(u) for kn, u in zip(knobs, theta + ck * delta, strict=True)]
        minus = [kn.value(u) for kn, u in zip(knobs, theta - ck * delta, strict=True)]
        y_plus, y_minus = evaluate(k, plus, minus)
        if scale is None:
            # The objective's per-game spread (pooled over both arms), fixed from the first step on.
            scale = float(np.sqrt((np.var(y_plus) + np.var(y_minus)) / 2)) or 1.0
        # The knobs' actual separation (rounding and clipping make it differ from 2·c_k·δ).
        apart = np.array([kn.unit(p) - kn.unit(m) for kn, p, m in zip(knobs, plus, minus, strict=True)])
        diff = (float(np.mean(y_plus)) - float(np.mean(y_minus))) / scale
        gradient = np.where(apart != 0, diff / np.where(apart != 0, apart, 1.0), 0.0)
        theta = np.clip(theta + gains.a_k(k) * gradient, 0.0, 1.0)
        row = {
            "step": k,
            "plus": plus,
            "minus": minus,
            "y_plus": float(np.mean(y_plus)),
            "y_minus": float(np.mean(y_minus)),
            "games": int(len(y_plus) + len(y_minus)),
            "scale": scale,
            "theta_next": [float(u) for u in theta],
            "knobs_next": [kn.value(u) for kn, u in zip(knobs, theta, strict=True)],
        }
        rows.append(row)
        if on_step is not None:
            on_step(row)
    return theta, rows


def slot_values(game: str, tables: dict[str, pl.DataFrame], slot: int, objective: str) -> np.ndarray:
    """The objective of lineup slot ``slot`` per game of ``tables`` (in game order): its share of
    first place (a first place shared by k players counts 1/k) or its final points."""
    players = tables["players"]
    if objective == "first_place":
        players = players.with_columns(
            value=(pl.col("rank") == 1).cast(pl.Float64) / (pl.col("rank") == 1).sum().over("game")
        )
    else:
        players = players.with_columns(value=pl.col("final_points").cast(pl.Float64))
    mine = players.filter(pl.col("player") == slot).group_by("game").agg(pl.col("value").mean()).sort("game")
    return mine["value"].to_numpy()


@dataclass(frozen=True)
class Confirmation:
    """The tuned knobs against the starting ones on fresh deals: the objective's mean difference per
    game (tuned − start) with its 95% interval and two-sided p-value (paired by deal)."""

    games: int
    estimate: float
    lo: float
    hi: float
    pvalue: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "estimate": self.estimate,
            "lo": self.lo,
            "hi": self.hi,
            "pvalue": self.pvalue,
        }


def paired_confirmation(tuned: np.ndarray, start: np.ndarray) -> Confirmation:
    d = tuned - start
    n = len(d)
    mean = float(np.mean(d))
    se = float(np.std(d, ddof=1) / math.sqrt(n)) if n > 1 else math.inf
    if se == 0:
        return Confirmation(n, mean, mean, mean, 1.0 if mean == 0 else 0.0)
    q = float(stats.t.ppf(0.975, n - 1))
    p = float(2 * stats.t.sf(abs(mean) / se, n - 1))
    return Confirmation(n, mean, mean - q * se, mean + q * se, p)


@dataclass(frozen=True)
class Plan:
    """What a tune is: everything its result depends on (its identity, recorded in ``tune.json``)."""

    exp: Experiment
    variant: str
    slot: int
    knobs: list[Knob]
    objective: str
    budget: int
    steps: int
    seed: int

    @property
    def per_arm(self) -> int:
        """Games per arm per step: whole deals of the lineup under duplicate play."""
        n = len(self.exp.lineup)
        games = max(1, self.budget // (2 * self.steps))
        return max(n, games - games % n) if self.exp.duplicate else games

    def identity(self) -> dict[str, Any]:
        return {
            "config_hash": self.exp.config_hash,
            "variant": self.variant,
            "slot": self.slot,
            "knobs": [k.name for k in self.knobs],
            "objective": self.objective,
            "budget": self.budget,
            "steps": self.steps,
            "seed": self.seed,
        }

    def lineup(self, values: Sequence[float | int]) -> list[dict[str, Any]]:
        lineup = [dict(s.knobs) for s in self.exp.lineup]
        lineup[self.slot].update({k.name: v for k, v in zip(self.knobs, values, strict=True)})
        return lineup

    def play(self, values: Sequence[float | int], seed: int, first: int, count: int) -> np.ndarray:
        tables = engine.play_batch(
            self.exp.game, self.exp.variants[self.variant], self.lineup(values), seed=seed, first_game=first,
            count=count, duplicate=self.exp.duplicate,
        )  # fmt: skip
        return slot_values(self.exp.game, tables, self.slot, self.objective)


def plan(
    exp: Experiment,
    slot: int,
    knobs: Sequence[str],
    objective: str,
    budget: int,
    steps: int,
    seed: int | None,
    variant: str | None,
) -> Plan:
    """The tune asked for, checked: errors name the option and what was expected."""
    if not 0 <= slot < len(exp.lineup):
        raise ConfigError(
            f"expected a lineup slot from 0 to {len(exp.lineup) - 1}, got {slot}", field="--slot"
        )
    if engine.PYTHON_KEY in exp.lineup[slot].knobs:
        raise ConfigError(
            "the slot plays a Python strategy; expected a knob strategy to tune", field="--slot"
        )
    if objective not in OBJECTIVES:
        raise ConfigError(f'expected one of {", ".join(OBJECTIVES)}, got "{objective}"', field="--objective")
    if steps < 2:
        raise ConfigError(f"expected at least 2 steps, got {steps}", field="--steps")
    if budget < 4 * steps:
        raise ConfigError(f"expected at least 4 games per step ({4 * steps}), got {budget}", field="--budget")
    chosen = variant or next(iter(exp.variants))
    if chosen not in exp.variants:
        raise ConfigError(
            f'no variant "{chosen}"; expected one of: {", ".join(exp.variants)}', field="--variant"
        )
    tuned = knobs_of(exp.game, knobs)
    if len({k.name for k in tuned}) != len(tuned) or not tuned:
        raise ConfigError("expected one or more distinct knob names", field="--knobs")
    return Plan(exp, chosen, slot, tuned, objective, budget, steps, exp.seed if seed is None else seed)


@dataclass(frozen=True)
class Result:
    start: list[float | int]
    tuned: list[float | int]
    trajectory: pl.DataFrame
    confirmation: Confirmation
    script: Path
    folder: Path


def tune(
    p: Plan,
    out: Path,
    *,
    gains: Gains | None = None,
    progress: Callable[[int, int], None] | None = None,
    stop_after: int | None = None,
) -> Result:
    """Runs (or resumes) the tune ``p`` in ``out/<config name>-tune-slot<N>``, confirms the tuned
    knobs on fresh deals (seed keyed apart from the tuning's) and writes the tuned strategy script
    beside the config (``strategies/<game>/<script>-tuned.toml``). ``progress(done, total)`` is
    called per step; ``stop_after`` stops after that many steps of this call (a kill, for tests)."""
    gains = gains or Gains(p.steps)
    folder = out / f"{p.exp.name}-tune-slot{p.slot}"
    folder.mkdir(parents=True, exist_ok=True)
    identity = p.identity()
    recorded = folder / MANIFEST
    if recorded.exists():
        old = json.loads(recorded.read_text())
        if old.get("identity") != identity:
            changed = [k for k in identity if old.get("identity", {}).get(k) != identity[k]]
            raise RunDirError(
                f"holds a tune of other inputs (changed: {', '.join(changed)}); remove it or use --out",
                file=folder,
            )
    else:
        store.write_file(recorded, json.dumps({"identity": identity}, indent=2).encode(), root=folder)
    path = folder / TRAJECTORY
    done = pl.read_parquet(path).to_dicts() if path.exists() else []
    start = [p.exp.lineup[p.slot].knobs[k.name] for k in p.knobs]
    n = p.per_arm
    taken = 0

    def evaluate(k: int, plus: list[float | int], minus: list[float | int]) -> tuple[np.ndarray, np.ndarray]:
        return p.play(plus, p.seed, k * n, n), p.play(minus, p.seed, k * n, n)

    def on_step(row: dict[str, Any]) -> None:
        nonlocal taken
        rows.append(row)
        store.write_file(path, store.shard_bytes(pl.DataFrame(rows).to_arrow(), {}), root=folder)
        taken += 1
        if progress is not None:
            progress(len(rows), p.steps)
        if stop_after is not None and taken >= stop_after and len(rows) < p.steps:
            raise KeyboardInterrupt("stopped")

    rows: list[dict[str, Any]] = list(done)
    theta, _ = spsa(p.knobs, start, gains, p.seed, evaluate, done, on_step)
    tuned = [k.value(u) for k, u in zip(p.knobs, theta, strict=True)]
    fresh = _key(p.seed, "confirm") % 2**63
    games = max(n * 4, p.budget // 4)
    confirmation = paired_confirmation(p.play(tuned, fresh, 0, games), p.play(start, fresh, 0, games))
    script = _write_script(p, tuned, start, confirmation)
    (folder / "result.json").write_text(
        json.dumps(
            {"start": start, "tuned": tuned, "confirmation": confirmation.to_dict(), "script": str(script)},
            indent=2,
        )
    )
    return Result(start, tuned, pl.DataFrame(rows), confirmation, script, folder)


def _write_script(p: Plan, tuned: list[float | int], start: list[float | int], c: Confirmation) -> Path:
    slot = p.exp.lineup[p.slot]
    name = f"{slot.script}-tuned"
    folder = p.exp.path.parent / "strategies" / p.exp.game
    folder.mkdir(parents=True, exist_ok=True)
    knobs = {
        **{k: v for k, v in slot.knobs.items() if k != engine.PYTHON_DIR_KEY},
        **dict(zip((k.name for k in p.knobs), tuned, strict=True)),
    }
    script = {
        "name": name,
        "game": p.exp.game,
        "version": 1,
        "description": (
            f"{slot.strategy} with {', '.join(k.name for k in p.knobs)} tuned by simharness tune for "
            f"{p.objective} against the rest of {p.exp.name}'s lineup"
        ),
        "knobs": knobs,
        "tuned": {
            "config": str(p.exp.path),
            **p.identity(),
            "start": start,
            "confirmation": c.to_dict(),
        },
    }
    path = folder / f"{name}.toml"
    path.write_text(tomlfile.dumps(script))
    return path
