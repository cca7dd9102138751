"""The hand-written Trick of the Rails of the speed benchmark (benchmarks/reference_tor.py) is the
engine's game: same options at every decision, same railways, shares and scores."""
from __future__ import annotations

import pytest

from conftest import benchmark, ruleset

REF = benchmark("reference_tor")


@pytest.mark.parametrize("players,seed", [(4, s) for s in range(1, 6)] + [(3, 1), (5, 1)])
def test_reference_plays_the_engines_game(players, seed):
    assert REF.check_game(ruleset("trick_of_the_rails"), players, seed) > 0


def test_reference_plays_on_its_own():
    scores, decisions = REF.play_random(7)
    assert len(scores) == 4 and decisions > 40
    assert REF.play_random(7) == (scores, decisions)
