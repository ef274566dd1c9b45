"""The Python API: an experiment run, opened, read, reported and compared from a notebook, with the
same results as the command line (``docs/python-api.md``).

``simharness`` re-exports what is here: ``sh.run``, ``sh.open``, ``sh.experiment``, ``sh.score``,
``sh.shanten``, ``Run`` and ``Report``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console

from simharness import config, engine, runner, store, tomlfile
from simharness.config import Experiment
from simharness.manifest import Manifest

ConfigLike = str | Path | Mapping[str, Any] | Experiment


def experiment(
    source: ConfigLike | None = None,
    *,
    games: int | None = None,
    seed: int | None = None,
    strategies: Mapping[str, type] | None = None,
    **fields: Any,
) -> Experiment:
    """A validated experiment: from a TOML file's path, a dict of its contents, or keyword fields
    (``game``, ``players``, ``rules``, ``variants``, ``games``, ``seed``, ``name``, ...; ``name``
    defaults to the game's). A mistake raises :class:`simharness.errors.ConfigError` with the same
    message and field path as in a TOML file. ``games``/``seed`` override the source's.
    ``strategies`` maps names to Python strategy classes: a lineup entry with such a name is played by
    the class (a config file or dict from a notebook, no module or script needed)."""
    if strategies:
        if isinstance(source, Experiment):
            raise TypeError("experiment(): strategies= goes with a config, not with an Experiment")
        if source is None or isinstance(source, Mapping):
            data = dict(source or {"name": str(fields.get("game", "experiment")), **fields})
            return config.from_dict(data, games=games, seed=seed, classes=strategies)
        path = Path(source)
        return config.from_dict(tomlfile.load(path), path, games=games, seed=seed, classes=strategies)
    if isinstance(source, Experiment):
        if fields:
            raise TypeError("experiment(): give an Experiment or fields, not both")
        return (
            source
            if games is None and seed is None
            else config.from_dict(dict(source.raw), source.path, games=games, seed=seed)
        )
    if source is None:
        data = {"name": str(fields.get("game", "experiment")), **fields}
        return config.from_dict(data, games=games, seed=seed)
    if fields:
        raise TypeError("experiment(): give a config or fields, not both")
    if isinstance(source, Mapping):
        return config.from_dict(dict(source), games=games, seed=seed)
    return config.load(source, games=games, seed=seed)


def to_toml(exp: Experiment) -> str:
    """The experiment as a TOML config file that loads to the same experiment."""
    return tomlfile.dumps(exp.raw)


def run(
    source: ConfigLike,
    *,
    games: int | None = None,
    seed: int | None = None,
    out: str | Path = "results",
    jobs: int = -1,
    progress: bool = True,
    force: bool = False,
    strategies: Mapping[str, type] | None = None,
) -> Run:
    """Plays the experiment (a config path, dict or :class:`Experiment`) into ``out/<name>``, or
    finishes it where it stopped, and returns the :class:`Run`; ``progress`` draws the bar on
    stderr. A finished run with the same config is opened as it is. ``strategies``: Python strategy
    classes by the names the lineup gives them (see :func:`experiment`)."""
    exp = experiment(source, games=games, seed=seed, strategies=strategies)
    console = Console(stderr=True, quiet=not progress)
    specs = [s.knobs.get(engine.PYTHON_KEY) for s in exp.lineup]
    # A class only this process can see (a notebook's) plays in this process's threads.
    local = any(spec and not engine.importable_class(str(spec)) for spec in specs)
    backend = "threading" if local else None
    return open(runner.run(exp, Path(out), jobs=jobs, force=force, console=console, backend=backend))


def open(run_dir: str | Path, *, partial: bool = False) -> Run:
    """The finished run in ``run_dir`` (``partial``: an unfinished one, on the games present in every
    variant; :attr:`Run.warning` says what is missing)."""
    return Run(store.open_run(run_dir, partial=partial))


class Run:
    """A run directory: its tables as polars LazyFrames (``players``, ``games``, every other table
    of the game by :meth:`table`), with a ``variant`` column; its report, comparisons and pages."""

    def __init__(self, stored: store.Run) -> None:
        self._run = stored

    def __repr__(self) -> str:
        return f"Run({str(self.path)!r}: {self.game}, variants {', '.join(self.variants)})"

    @property
    def path(self) -> Path:
        return self._run.path

    @property
    def manifest(self) -> Manifest:
        """The run's manifest (``Manifest.to_json()``: as its file holds it)."""
        return self._run.manifest

    @property
    def game(self) -> str:
        return self.manifest.game

    @property
    def variants(self) -> list[str]:
        return self._run.variants

    @property
    def tables(self) -> list[str]:
        return self._run.tables

    @cached_property
    def games_per_variant(self) -> int:
        """Games per variant read (of a partial run: those present in every variant)."""
        first = self.games.filter(pl.col("variant") == self.variants[0])
        return int(first.select(pl.len()).collect().item())

    @property
    def warning(self) -> str | None:
        """What an unfinished run opened with ``partial=True`` lacks."""
        return self._run.warning

    @property
    def lineup(self) -> list[str]:
        """The strategy of each lineup slot."""
        return [slot.strategy for slot in self.manifest.lineup]

    def table(self, name: str, *, decode: bool = True) -> pl.LazyFrame:
        """Table ``name`` of every variant (in the config's order) as one LazyFrame, with ``variant``
        first; each shard is checked before it is read. ``decode`` reads the coded columns as the
        engine names them (:func:`decoded`); ``decode=False`` gives the stored codes."""
        if name not in self.tables:
            raise KeyError(f'no table "{name}"; the run has: {", ".join(self.tables)}')
        frames = [self._run.scan(name, v).with_columns(variant=pl.lit(v)) for v in self.variants]
        order = pl.Enum(self.variants)
        raw = (
            pl.concat(frames)
            .with_columns(pl.col("variant").cast(order))
            .select("variant", pl.exclude("variant"))
        )
        if not decode:
            return raw
        seated = self.table("players", decode=False).select("variant", "game", "seat", "strategy")
        return decoded(raw, self.game, name, None if name == "players" else seated)

    @property
    def players(self) -> pl.LazyFrame:
        """One row per seat per game: ``strategy`` (the lineup slot's name), ``final_points``, ``rank``..."""
        return self.table("players")

    @property
    def games(self) -> pl.LazyFrame:
        """One row per game: ``game``, ``deal``, ``rotation`` and the game's own columns."""
        return self.table("games")

    @property
    def hands(self) -> pl.LazyFrame:
        """One row per hand, in the games that have hands."""
        return self.table("hands")

    def report(self, *, jobs: int = 1) -> Report:
        """The report ``simharness report`` prints (one pass over the run, its chunks summed in
        ``jobs`` worker processes, -1 for every core, each holding a chunk; the same report for any
        number)."""
        from simharness.report.full import report_of
        from simharness.report.stream import collect

        runner.check_jobs(jobs)
        collected = collect(self._run, scorecard=True, jobs=jobs)
        return Report(self, report_of(collected), collected.sums)

    def compare(
        self,
        a: str,
        b: str,
        *,
        metric: str = "win",
        variant: str | None = None,
        alpha: float = 0.05,
        jobs: int = 1,
    ) -> dict[str, Any]:
        """Strategies ``a`` and ``b`` paired on shared deals, as ``simharness compare --json`` (``jobs``
        as for :meth:`report`)."""
        from simharness.report.compare import compare_strategies

        runner.check_jobs(jobs)
        return compare_strategies(self._run, a, b, metric=metric, variant=variant, alpha=alpha, jobs=jobs)

    def show(self, game: int, *, variant: str | None = None, out: str | Path | None = None) -> Path:
        """Plays ``game`` again with every event and writes its page (default: inside the run
        directory, as ``simharness show``); returns the page's path."""
        from simharness.show.replay import write_page

        return write_page(self.path, game, variant, out)


@dataclass
class Report:
    """A run's report: ``data`` is what ``simharness report --json`` prints; the tables below are
    its parts as polars DataFrames (an interval as ``<metric>``, ``<metric>_lo``, ``<metric>_hi``)."""

    run: Run
    data: dict[str, Any]
    _sums: Any = None

    def __repr__(self) -> str:
        return f"Report({self.run!r})"

    @property
    def verdict(self) -> Any:
        """The answer to the config's question, where the report states one."""
        return self.data.get("verdict")

    @property
    def strategies(self) -> pl.DataFrame:
        """Per variant and strategy: rows, games, deals, 1st-place rate and mean final points."""
        return self._by("by_strategy", "strategy")

    @property
    def seats(self) -> pl.DataFrame:
        """Per variant and seat: as :attr:`strategies`."""
        return self._by("by_seat", "seat")

    def _by(self, part: str, key: str) -> pl.DataFrame:
        rows = []
        for variant, v in self.data["variants"].items():
            for row in v[part]:
                flat: dict[str, Any] = {"variant": variant, key: row[key]}
                for name in ("rows", "games", "deals"):
                    flat[name] = row[name]
                _interval(flat, "first_place_rate", row["first_place_rate"])
                _interval(flat, "mean_points", row["points"]["mean"])
                rows.append(flat)
        return pl.DataFrame(rows)

    @property
    def differences(self) -> pl.DataFrame:
        """Each variant against the base, per strategy and metric: the paired difference with its
        interval, p-value and Holm-adjusted p-value."""
        rows = []
        for d in self.data["differences"]:
            flat = {k: d[k] for k in ("variant", "baseline", "strategy", "metric")}
            _interval(flat, "difference", d["difference"])
            flat.update(p=d.get("pvalue"), p_holm=d.get("p_holm"))
            rows.append(flat)
        return pl.DataFrame(rows)

    def to_json(self) -> str:
        """The report as ``simharness report --json`` prints it."""
        return json.dumps(self.data, indent=2, allow_nan=False, default=str)

    def to_html(self, path: str | Path) -> Path:
        """Writes the HTML report (and its extreme games' pages beside it); returns its path."""
        from simharness.report.html import write_html

        path = Path(path)
        with store.naming(path):
            write_html(self.run._run, self.data, path, self._sums)
        return path


def decoded(
    frame: pl.LazyFrame, game: str, table: str, strategies: pl.LazyFrame | None = None
) -> pl.LazyFrame:
    """``frame`` (rows of ``game``'s table ``table``) with its coded columns as the engine names them
    (``engine.ColumnSpec``): a value code as a ``pl.Enum`` of the names (its physical value is the
    code), a bit mask as a list of the names of its bits, a mask of seats as a list of seats, in
    order. Beside a seat column ``c`` (the dealer, the discarder), ``c_strategy`` names the strategy
    that played that seat in that game when ``strategies`` (``variant, game, seat, strategy`` rows)
    is given; no seat (negative, or 255) is null in both."""
    have = set(frame.collect_schema().names())
    spec = {t.name: t for t in engine.schema(game)}[table]
    exprs: list[pl.Expr] = []
    seats: list[str] = []
    for c in (c for c in spec.columns if c.name in have):
        col = pl.col(c.name)
        if c.labels is not None:
            exprs.append(
                col.cast(pl.UInt32).replace_strict(
                    range(len(c.labels)), c.labels, return_dtype=pl.Enum(c.labels)
                )
            )
        elif c.bits is not None:
            exprs.append(_members(col, list(c.bits), pl.Enum(c.bits)).alias(c.name))
        elif c.seats:
            exprs.append(_members(col, list(range(8)), pl.UInt8()).alias(c.name))
        elif c.seat:
            none = (col.cast(pl.Int64) < 0) | (col.cast(pl.Int64) == 255)
            exprs.append(pl.when(none).then(None).otherwise(col).cast(pl.UInt8).alias(c.name))
            seats.append(c.name)
    out = frame.with_columns(exprs)
    if strategies is not None and "game" in have:
        for seat in seats:
            named = strategies.rename({"seat": seat, "strategy": f"{seat}_strategy"})
            out = out.join(named, on=["variant", "game", seat], how="left", maintain_order="left")
    return out


def _members(mask: pl.Expr, names: list[Any], dtype: pl.DataType) -> pl.Expr:
    """The names of the bits set in ``mask``, in bit order."""
    parts = [
        pl.when((mask.cast(pl.UInt64) & (1 << i)) != 0).then(pl.lit(n, dtype)) for i, n in enumerate(names)
    ]
    return pl.concat_list(parts).list.drop_nulls()


def _interval(row: dict[str, Any], name: str, value: Mapping[str, Any]) -> None:
    row[name] = value["estimate"]
    row[f"{name}_lo"] = value["lo"]
    row[f"{name}_hi"] = value["hi"]


def score(game: str, hand: str, *args: Any, **options: Any) -> Any:
    """The value of one hand in ``game`` (riichi, suzume, hongkong, trump): that game's
    ``score_hand`` (``simharness.games.<game>.score_hand``), with its arguments."""
    from simharness.games import registry

    fn = (
        getattr(registry.package(game), "score_hand", None)
        if game in {g.name for g in engine.games()}
        else None
    )
    if fn is None:
        able = ", ".join(g.name for g in engine.games() if hasattr(registry.package(g.name), "score_hand"))
        raise ValueError(f'game: "{game}" has no hand scoring; games with one: {able}')
    return fn(hand, *args, **options)


def shanten(hand: str) -> int:
    """Shanten of a Riichi hand in MPSZ (−1: complete), as ``simharness shanten``."""
    from simharness.games.riichi import scoring

    return scoring.shanten(hand)
