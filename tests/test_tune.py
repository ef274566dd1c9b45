"""`simharness tune` (#28): SPSA finds a known optimum, recovers a detuned knob of a real game and
confirms it on fresh deals, is a function of its seed, and resumes after a kill where it stopped."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest
from typer.testing import CliRunner

from simharness import config, tomlfile
from simharness import tune as tuner
from simharness.cli import app

DETUNED = """\
name = "detuned"
game = "suzume"
games = 1000
seed = 3
duplicate = true
players = [{ strategy = "fastest", knobs = { min_win_score = 15 } }, "fastest", "fastest", "fastest"]
"""


def test_spsa_reaches_a_known_optimum_through_noise() -> None:
    knobs = [tuner.Knob("x", 0, 40, True), tuner.Knob("y", 0.0, 1.0, False)]
    noise = np.random.default_rng(1)

    def evaluate(
        step: int, plus: list[float | int], minus: list[float | int]
    ) -> tuple[np.ndarray, np.ndarray]:
        def sample(v: list[float | int]) -> np.ndarray:
            u = [k.unit(x) for k, x in zip(knobs, v, strict=True)]
            return -((u[0] - 0.7) ** 2 + (u[1] - 0.2) ** 2) + noise.normal(0, 0.3, 200)

        return sample(plus), sample(minus)

    theta, rows = tuner.spsa(knobs, [5, 0.9], tuner.Gains(60), seed=7, evaluate=evaluate)
    assert len(rows) == 60
    assert theta == pytest.approx([0.7, 0.2], abs=0.08), theta


@pytest.fixture()
def detuned(tmp_path: Path) -> Path:
    path = tmp_path / "detuned.toml"
    path.write_text(DETUNED)
    return path


def test_tune_recovers_a_detuned_knob_and_writes_a_script_that_runs(
    detuned: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    args = [
        "tune",
        str(detuned),
        "--slot",
        "0",
        "--knobs",
        "min_win_score",
        "--budget",
        "4000",
        "--steps",
        "10",
    ]
    done = CliRunner().invoke(app, [*args, "--out", str(tmp_path / "out")])
    assert done.exit_code == 0, done.output
    assert "min_win_score: 15 → " in done.output
    script = tmp_path / "strategies" / "suzume" / "fastest-tuned.toml"
    written = tomlfile.load(script)
    # Declaring every legal win is what wins races here: the tuner walks back from 15 to (near) 0,
    # and the confirmation on fresh deals says the tuned knob is better with an interval above 0.
    assert written["knobs"]["min_win_score"] <= 3
    confirmation = written["tuned"]["confirmation"]
    assert confirmation["lo"] > 0 and confirmation["games"] >= 1000
    assert written["tuned"]["budget"] == 4000 and written["tuned"]["start"] == [15]
    trajectory = pl.read_parquet(tmp_path / "out" / "detuned-tune-slot0" / tuner.TRAJECTORY)
    assert trajectory.height == 10 and trajectory["games"].sum() <= 4000
    # The tuned script is a strategy like any other.
    (tmp_path / "uses.toml").write_text(
        DETUNED.replace('{ strategy = "fastest", knobs = { min_win_score = 15 } }', '"fastest-tuned"')
    )
    assert (
        config.load(tmp_path / "uses.toml").lineup[0].knobs["min_win_score"]
        == written["knobs"]["min_win_score"]
    )


def test_a_tune_is_a_function_of_its_seed_and_resumes_after_a_kill(detuned: Path, tmp_path: Path) -> None:
    exp = config.load(detuned)
    plan = tuner.plan(exp, 0, ["min_win_score", "fold_need"], "final_points", 1200, 6, seed=11, variant=None)
    whole = tuner.tune(plan, tmp_path / "a")
    with pytest.raises(KeyboardInterrupt):
        tuner.tune(plan, tmp_path / "b", stop_after=2)
    killed = pl.read_parquet(tmp_path / "b" / "detuned-tune-slot0" / tuner.TRAJECTORY)
    assert killed.height == 2
    resumed = tuner.tune(plan, tmp_path / "b")
    assert resumed.trajectory.equals(whole.trajectory)
    assert resumed.tuned == whole.tuned and resumed.confirmation == whole.confirmation
    other = tuner.tune(
        tuner.plan(exp, 0, ["min_win_score", "fold_need"], "final_points", 1200, 6, 12, None), tmp_path / "c"
    )
    assert not other.trajectory.equals(whole.trajectory)


@pytest.mark.parametrize(
    ("extra", "field", "expected"),
    [
        (["--knobs", "discard"], "--knobs", "expected a numeric knob"),
        (["--knobs", "min_win_scor"], "--knobs", 'no knob "min_win_scor"'),
        (["--knobs", "fold_need", "--slot", "7"], "--slot", "expected a lineup slot from 0 to 3"),
        (["--knobs", "fold_need", "--objective", "elo"], "--objective", "expected one of first_place"),
    ],
)
def test_wrong_tune_options_are_named(detuned: Path, extra: list[str], field: str, expected: str) -> None:
    args = ["tune", str(detuned), "--slot", "0", *extra]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 2
    message = " ".join(done.output.split())
    assert field in message and expected in message, message
