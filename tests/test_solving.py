"""OpenSpiel's own algorithms on rulesets through the adapter: CFR+ solves Kuhn poker (explicit
chance, score returns) at its published value, minimax solves tic-tac-toe (deterministic,
perfect information), and OpenSpiel's random simulation test with serialization passes on every
shipped ruleset with explicit chance."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")

import pyspiel  # noqa: E402
from open_spiel.python import policy  # noqa: E402
from open_spiel.python.algorithms import (cfr, expected_game_score, exploitability,  # noqa: E402
                                          get_all_states, minimax)

from engine import Game  # noqa: E402
from engine.adapters.openspiel import register  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "rulesets").glob("*.yaml")) + sorted((ROOT / "examples").glob("*/*.yaml"))
KUHN = {"chance": "explicit", "returns": "scores", "min_utility": -2.0, "max_utility": 2.0, "zero_sum": True}


@pytest.fixture(scope="module")
def kuhn():
    return pyspiel.load_game(register("kuhn"), KUHN)


def test_kuhn_has_the_tree_of_openspiels_kuhn_poker(kuhn):
    kinds = pyspiel.GameType
    assert kuhn.get_type().chance_mode == kinds.ChanceMode.EXPLICIT_STOCHASTIC
    assert kuhn.get_type().information == kinds.Information.IMPERFECT_INFORMATION
    assert kuhn.get_type().utility == kinds.Utility.ZERO_SUM
    assert (kuhn.min_utility(), kuhn.max_utility()) == (-2.0, 2.0)
    states = get_all_states.get_all_states(kuhn, include_terminals=True, include_chance_states=True)
    ours = pyspiel.load_game("kuhn_poker")
    theirs = get_all_states.get_all_states(ours, include_terminals=True, include_chance_states=True)
    assert len(states) == len(theirs) == 58
    infosets = {s.information_state_string() for s in states.values() if s.current_player() >= 0}
    assert len(infosets) == 12  # 6 a player: each card, before and after a bet
    uniform = [exploitability.exploitability(g, policy.UniformRandomPolicy(g)) for g in (kuhn, ours)]
    assert uniform[0] == pytest.approx(uniform[1]) == pytest.approx(11 / 24)


def test_cfr_plus_solves_kuhn_poker_at_its_published_value(kuhn):
    solver = cfr.CFRPlusSolver(kuhn)
    for _ in range(300):
        solver.evaluate_and_update_policy()
    average = solver.average_policy()
    assert exploitability.exploitability(kuhn, average) < 0.01
    value = expected_game_score.policy_value(kuhn.new_initial_state(), [average, average])
    assert value[0] == pytest.approx(-1 / 18, abs=0.01) and sum(value) == pytest.approx(0)


def test_score_returns_are_the_chips_and_rank_returns_are_not(kuhn):
    def check_bet_call(game, deal):
        state = game.new_initial_state()
        for action in deal:
            state.apply_action(action)
        for move in ("check", "bet", "call"):
            names = {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}
            state.apply_action(names[move])
        return state.returns()
    assert check_bet_call(kuhn, (2, 0)) == [2.0, -2.0]  # King against Jack, as the deal's outcomes
    ranked = pyspiel.load_game(register("kuhn"), {"chance": "explicit"})
    assert check_bet_call(ranked, (2, 0)) == [1.0, -1.0]
    with pytest.raises(ValueError, match="min_utility < max_utility"):
        pyspiel.load_game(register("kuhn"), {"returns": "scores"})
    narrow = pyspiel.load_game(register("kuhn"), {**KUHN, "max_utility": 1.0, "min_utility": -1.0})
    with pytest.raises(ValueError, match="not within the game's parameters"):
        check_bet_call(narrow, (2, 0))


def test_minimax_solves_tic_tac_toe_as_a_draw():
    game = pyspiel.load_game(register("tictactoe"))
    kinds = pyspiel.GameType
    assert game.get_type().chance_mode == kinds.ChanceMode.DETERMINISTIC
    assert game.get_type().information == kinds.Information.PERFECT_INFORMATION
    value, _ = minimax.alpha_beta_search(game, maximizing_player_id=0)
    assert value == 0.0
    state = game.new_initial_state()
    for cell in ("1", "6"):  # a corner, answered at an edge beside none of its lines: lost for O
        names = {state.action_to_string(state.current_player(), a): a for a in state.legal_actions()}
        state.apply_action(names[cell])
    assert minimax.alpha_beta_search(game, state, maximizing_player_id=0)[0] == 1.0


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_random_sim_test_with_serialization_passes_with_explicit_chance(path):
    game = pyspiel.load_game(register(str(path)), {"chance": "explicit", "max_decisions": 8})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_decisions_of_one_option_are_states_on_request():
    game = pyspiel.load_game(register("tictactoe"), {"single_option_states": True})
    states = get_all_states.get_all_states(game, include_terminals=True, to_string=str)
    assert len(states) == 5478  # as OpenSpiel's own tic_tac_toe: 5,256 without the last forced moves
    assert any(len(s.legal_actions()) == 1 for s in states.values())
    engine_game = next(s for s in states.values() if len(s.legal_actions()) == 1)._play.game
    assert engine_game.ask_single and engine_game.snapshot()["ask_single"] is True
    again = Game.from_snapshot(engine_game.rules, engine_game.snapshot())
    assert again.ask_single and again.legal_actions() == [0]
    assert "ask_single" not in Game(engine_game.rules, 2).snapshot()  # saved only when set


def test_the_adapters_page_examples_run(tmp_path):
    blocks = re.findall(r"^```python\n(.*?)^```", (ROOT / "docs" / "adapters.md").read_text(encoding="utf-8"),
                        re.S | re.M)
    assert len(blocks) == 2
    script = tmp_path / "adapters.py"
    script.write_text("\n".join(blocks), encoding="utf-8")
    proc = subprocess.run([sys.executable, str(script)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    printed = proc.stdout.split("\n")
    assert float(printed[0]) < 0.01 and "-0.05" in printed[1] and float(printed[2]) == 0.0
