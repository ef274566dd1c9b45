"""``simharness init``: a starter experiment (a commented config and a strategy script) that runs.

Both files are generated from the engine's catalogues (players, rule options, knobs and their docs),
so a starter exists for every game the engine plays and always names real options.
"""

from __future__ import annotations

import re
from itertools import cycle, islice
from pathlib import Path

from simharness import config, engine, strategies, tomlfile
from simharness.errors import ConfigError

CONFIG = "experiment.toml"
SCRIPT = "my-strategy"
# A lineup of four where the game allows it: enough seats for the built-in opponents to matter.
_SEATS = 4


def _commented(specs: tuple[engine.OptionSpec, ...]) -> list[str]:
    """Every option as a commented-out line at its default, its meaning above it."""
    return [
        line
        for s in specs
        for line in (
            *(f"# {d}".rstrip() for d in s.doc.splitlines()),
            f"# {s.name} = {tomlfile.value(s.default)}",
        )
    ]


def _script(game: str) -> str:
    return "\n".join(
        [
            f'name = "{SCRIPT}"',
            f'game = "{game}"',
            "version = 1                  # bump it when the knobs change meaning (recorded with every run)",
            'description = "My strategy: the engine\'s default knobs until I change some below"',
            "",
            "[knobs]",
            "# Uncomment and change any knob; the others keep the defaults shown.",
            f"# (`simharness strategies {game} --knobs` compares the built-in scripts' values.)",
            *_commented(engine.knob_options(game)),
            "",
        ]
    )


def _lineup(game: str) -> list[str]:
    info = engine.game_info(game)
    seats = min(max(_SEATS, info.min_players), info.max_players)
    scripts = sorted((strategies.BUILTIN / "strategies" / game).glob("*.toml"))
    builtin = [s.path.stem for s in map(strategies.load, scripts) if s.python is None]
    return [SCRIPT, *islice(cycle(builtin or [SCRIPT]), seats - 1)]


def _config(name: str, game: str) -> str:
    example = next((s for s in engine.rule_options(game) if s.type == "bool"), None)
    variants = (
        [
            "# Named variants: overrides on top of [rules]; every variant plays the same keyed chance,",
            "# so their differences are measured deal by deal. For example:",
            f"# [variants.{example.name}-on]",
            f"# {example.name} = true",
            f"# [variants.{example.name}-off]",
            f"# {example.name} = false",
        ]
        if example is not None
        else []
    )
    return "\n".join(
        [
            f"# A starter experiment: `simharness run {CONFIG}`, then `simharness report results/{name}`.",
            f'name = "{name}"'.ljust(29) + "# the run directory: results/<name>",
            f'game = "{game}"',
            "games = 1000                 # per variant; raise it for tighter confidence intervals",
            "seed = 1                     # every die and shuffle is keyed by (seed, deal, ...)",
            'description = "My strategy against built-in ones"',
            "# The lineup in seat order: strategies/<game>/<name>.toml next to this file (or above it)",
            "# wins over a built-in script of the same name (`simharness strategies` lists them).",
            f"players = {tomlfile.value(_lineup(game))}",
            "",
            "[rules]",
            'preset = "default"           # a named base rule set',
            f"# Any rule option overrides the preset: `simharness rules {game}` lists them all.",
            "",
            *variants,
            "",
        ]
    )


def write(directory: Path, game: str) -> list[Path]:
    """Writes the starter into ``directory`` (created if needed) and returns the files; never
    overwrites a file. The written config is loaded before returning, so it is known to run."""
    engine.game_info(game)
    name = re.sub(r"[^A-Za-z0-9_.+-]", "-", directory.resolve().name).lstrip("_.+-") or "experiment"
    files = {
        directory / CONFIG: _config(name, game),
        directory / "strategies" / game / f"{SCRIPT}.toml": _script(game),
    }
    for path in files:
        if path.exists():
            raise ConfigError("already exists; choose another directory or move it away", file=path)
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    config.load(directory / CONFIG)
    return list(files)
