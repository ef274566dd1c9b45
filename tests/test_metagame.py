"""The metagame's mathematics (#29) on games whose answers are known: the equilibria of rock-paper-
scissors, a prisoner's dilemma, hawk-dove, a 3-strategy game with an interior equilibrium and a
4-player volunteer's dilemma; α-Rank against OpenSpiel's implementation where it is installed; a
dominant strategy flagged."""

from __future__ import annotations

import numpy as np
import pytest

from simharness.stats import metagame as mg

RPS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], float)
PD = np.array([[3, 0], [5, 1]], float)  # cooperate, defect
HAWK_DOVE = np.array([[-1, 2], [0, 1]], float)  # V = 2, C = 4: hawks (V - C)/2, dove V/2
SKEWED = np.array([[0, -1, 3], [2, 0, -1], [-1, 1, 0]], float)


def _mixes(table: mg.PayoffTable) -> list[np.ndarray]:
    return [e.mix for e in mg.equilibria(table)]


def test_rock_paper_scissors_has_the_uniform_mix_alone() -> None:
    found = mg.equilibria(mg.PayoffTable.from_matrix("RPS", RPS))
    assert len(found) == 1 and np.allclose(found[0].mix, 1 / 3, atol=1e-8)
    assert found[0].entropy == pytest.approx(np.log2(3))


def test_the_prisoners_dilemma_ends_in_defection_which_dominates() -> None:
    table = mg.PayoffTable.from_matrix(("cooperate", "defect"), PD)
    assert [list(m) for m in _mixes(table)] == [[0.0, 1.0]]
    assert mg.dominant(table) == 1
    assert mg.dominant(mg.PayoffTable.from_matrix("RPS", RPS)) is None


def test_hawk_dove_mixes_at_v_over_c_and_its_pure_profiles_are_not_equilibria() -> None:
    found = _mixes(mg.PayoffTable.from_matrix(("hawk", "dove"), HAWK_DOVE))
    assert len(found) == 1 and found[0] == pytest.approx([0.5, 0.5], abs=1e-9)


def test_an_interior_equilibrium_equals_the_linear_solution() -> None:
    # Every strategy of an interior equilibrium earns the same: A x = v 1 with sum x = 1.
    a = np.vstack([np.hstack([SKEWED, -np.ones((3, 1))]), [1, 1, 1, 0]])
    expected = np.linalg.solve(a, [0, 0, 0, 1])[:3]
    assert np.all(expected > 0)
    found = _mixes(mg.PayoffTable.from_matrix("abc", SKEWED))
    assert any(np.allclose(x, expected, atol=1e-8) for x in found), found


def test_a_four_player_volunteers_dilemma_has_its_known_mixed_equilibrium() -> None:
    benefit, cost, n = 1.0, 0.3, 4

    def payoff(counts: tuple[int, ...]) -> list[float]:
        volunteers = counts[0]
        return [benefit - cost, benefit if volunteers > 0 else 0.0]

    table = mg.PayoffTable.of(("volunteer", "wait"), n, payoff)
    q = (cost / benefit) ** (1 / (n - 1))  # the chance that a player waits
    mixed = [x for x in _mixes(table) if 0 < x[0] < 1]
    assert len(mixed) == 1 and mixed[0] == pytest.approx([1 - q, q], abs=1e-8)
    # The pure profiles are no equilibria: alone, one volunteers; among volunteers, one waits.
    assert all(0 < x[0] < 1 for x in _mixes(table))


@pytest.mark.parametrize("matrix", [RPS, PD, HAWK_DOVE, SKEWED, np.random.default_rng(3).normal(size=(4, 4))])
@pytest.mark.parametrize("alpha", [0.5, 5.0])
def test_alpharank_matches_openspiel_on_two_player_games(matrix: np.ndarray, alpha: float) -> None:
    alpharank = pytest.importorskip("open_spiel.python.egt.alpharank")
    m = 20
    ours = mg.alpharank(mg.PayoffTable.from_matrix([str(i) for i in range(len(matrix))], matrix), alpha, m)
    # The whole-population model (OpenSpiel's default is the local one, against one opponent).
    theirs = alpharank.compute([matrix], m=m, alpha=alpha, use_local_selection_model=False)[2]
    assert ours == pytest.approx(theirs, abs=1e-6)


def test_alpharank_puts_its_mass_on_a_dominant_strategy_of_a_many_player_game() -> None:
    # Four players; a and b feed on each other (at most 1.5), c earns 2 whatever the profile.
    table = mg.PayoffTable.of("abc", 4, lambda counts: [counts[1] * 0.5, counts[0] * 0.5, 2.0])
    assert mg.dominant(table) == 2
    pi = mg.alpharank(table, alpha=20, m=30)
    assert pi[2] > 0.999 and pi.sum() == pytest.approx(1)
    assert mg.equilibria(table)[0].support == (2,)
