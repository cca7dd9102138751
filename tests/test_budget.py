"""A bot's time budget where a person waits (players/budget.py): engine play and engine serve
give mcts one, simulate keeps the fixed budgets, and --think 0 plays simulate's games again."""
from __future__ import annotations

import json
import re

import pytest

from conftest import ruleset
from engine.analysis.run import RunSpec
from engine.game.game import Game
from engine.game.view import view
from engine.players import search
from engine.players.budget import THINK, timed, timed_defaults
from engine.players.search import MctsAgent
from test_cli import TRICK, engine


def test_a_time_budget_is_given_to_mcts_over_the_rulesets_settings():
    settings = {"mcts": {"depth": 0}, "scout": {"lines": 6}}
    assert timed_defaults(settings, 0.25) == {"mcts": {"depth": 0, "ms": 250.0}, "scout": {"lines": 6}}
    assert timed_defaults({}, THINK) == {"mcts": {"ms": THINK * 1000}}
    assert timed_defaults(settings, 0) is settings  # --think 0: the fixed budgets


def test_only_seats_a_budget_changes_are_timed():
    assert timed(["human", "mcts:iterations=5", "random"])
    assert not timed(["random", "greedy:tries=2", "scout", "human"])


class Clock:
    """A clock that moves on by `step` seconds each time it is read: a search's pace, made exact."""

    def __init__(self, step: float):
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_mcts_stops_at_its_deadline_with_a_legal_move(monkeypatch):
    """With a budget of 100 ms and a clock that moves 5 ms each time it is read (at least once
    an iteration), the search ends within 20 of its 100000 iterations, and still answers with
    one of the options."""
    game = Game(ruleset("railways"), 3, seed=2)
    pv = view(game, game.pending.player)
    assert pv.option_count > 1
    counted = []
    iterate = MctsAgent._iterate
    monkeypatch.setattr(MctsAgent, "_iterate", lambda self, root, world: counted.append(1) or iterate(self, root, world))
    monkeypatch.setattr(search.time, "perf_counter", Clock(0.005))
    choice = MctsAgent(seed=1, iterations=100_000, ms=100).choose(pv)
    assert 0 <= choice < pv.option_count
    assert 2 <= len(counted) <= 20, len(counted)


def test_a_simulated_games_command_plays_it_again_with_its_fixed_budgets():
    spec = RunSpec(ruleset="trick_of_the_rails", players=3, seats=["mcts:iterations=5", "random", "random"],
                   seed=1, options={})
    assert spec.reproduce(7).endswith("--seats mcts:iterations=5,random,random --think 0")
    random_only = RunSpec(ruleset="trick_of_the_rails", players=3, seats=["random"] * 3, seed=1, options={})
    assert "--think" not in random_only.reproduce(7)


def test_play_with_think_0_plays_the_game_simulate_played():
    seats = "mcts:iterations=5:depth=2,random,random"
    proc = engine("simulate", TRICK, "--players", "3", "--games", "1", "--seed", "3", "--jobs", "1", "--json",
                  "--seats", seats)
    record = json.loads(proc.stdout)["results"][0]
    played = engine("play", TRICK, "--players", "3", "--seed", str(record["seed"]), "--seats", seats, "--think", "0")
    assert played.returncode == 0, played.stderr
    for seat, score in record["scores"].items():
        assert re.search(rf"^\s+{seat} \(\w+\)\s.*\s{score}$", played.stdout, re.M), played.stdout


@pytest.mark.parametrize("given", ["-1", "61", "nan"])
def test_a_think_out_of_range_is_refused_in_one_line(given):
    proc = engine("play", TRICK, "--players", "3", "--seats", "random,random,random", "--think", given)
    assert proc.returncode != 0
    assert proc.stderr.strip() == "engine: --think takes a number of seconds from 0 to 60", proc.stderr
