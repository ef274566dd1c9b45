"""Every rule option of every game changes the games of its coverage lineup
(`configs/<game>-coverage.toml`), unless the config exempts it with a reason: an option whose
variant plays exactly the base's games cannot be studied with these strategies."""

from __future__ import annotations

from pathlib import Path

import pytest

from simharness import config, engine
from simharness.sweep import BASE, same_games

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("game", engine.game_names())
def test_every_option_changes_the_coverage_lineups_games(game: str) -> None:
    path = REPO / "configs" / f"{game}-coverage.toml"
    assert path.exists(), f"{game} has no coverage lineup"
    exp = config.load(path)
    assert exp.sweep is not None
    lineup = [s.knobs for s in exp.lineup]

    def play(variant: str) -> dict:
        return engine.play_batch(
            game, exp.variants[variant], lineup, seed=exp.seed, first_game=0, count=exp.games
        )

    base = play(BASE)
    changed: dict[str, bool] = {}
    for variant, option in exp.sweep.option_of.items():
        changed[option] = changed.get(option, False) or not same_games(play(variant), base)
    options = {s.name for s in engine.rule_options(game)}
    untried = sorted(options - set(changed) - set(exp.exempt))
    assert not untried, f"{game}: options with no valid non-default value and no exemption: {untried}"
    silent = sorted(o for o, c in changed.items() if not c and o not in exp.exempt)
    assert not silent, f"{game}: these options play the base's games with the coverage lineup: {silent}"
    # An exemption whose option does change the games is stale: the list must stay the truth.
    stale = sorted(o for o in exp.exempt if changed.get(o))
    assert not stale, f"{game}: exempt, yet they change the games: {stale}"
