"""Isolated seats (players/isolation.py): an agent in a process of its own plays exactly as it
would in this one, cannot reach the game, and cannot hold a run up or break it."""
from __future__ import annotations

import json

import pytest

from conftest import ROOT, ruleset
from engine.analysis.simulate import simulate
from engine.core.errors import EngineError
from engine.players.isolation import Isolation

from test_cli import TRICK, engine, one_line_error

FLAT = f"{ROOT / 'examples' / 'agents' / 'flat_monte_carlo.py'}:FlatMonteCarlo:playouts=2"

# Agents a stranger might send. Each reads what it should not, or stalls, or fails.
AGENTS = """\
import gc, json, os, time


class Rewriter:
    \"\"\"Rewrites the rules of the world it is given (in one process, those of the real game),
    going around their guard as introspection can.\"\"\"
    def __init__(self, seed):
        pass

    def choose(self, view):
        rules = view.world(1).rules
        object.__setattr__(rules, "score", lambda game, player: 1000)
        object.__setattr__(rules, "breakdown", {})
        return 0


class Writer:
    \"\"\"Writes to the rules and to a card of the world it is given, as any code may.\"\"\"
    def __init__(self, seed, what=0):
        self.what = what

    def choose(self, view):
        world = view.world(1)
        if self.what:
            world.table.cards[0].label = "mine"
        world.rules.score = lambda game, player: 1000
        return 0


class Snoop:
    \"\"\"Looks through every object of its process for a game with decisions taken: the real one.\"\"\"
    def __init__(self, seed):
        pass

    def choose(self, view):
        games = [o for o in gc.get_objects() if type(o).__name__ == "Game" and getattr(o, "decisions", None)]
        with open(os.environ["SNOOP_REPORT"], "a") as report:
            report.write(json.dumps([o.seed for o in games]) + "\\n")
        return 0


class Sleeper:
    def __init__(self, seed, wait=30):
        self.wait = wait

    def choose(self, view):
        time.sleep(self.wait)
        return 0


class Faulty:
    def __init__(self, seed):
        pass

    def choose(self, view):
        raise ValueError("no idea")


class Wrong:
    def __init__(self, seed):
        pass

    def choose(self, view):
        return view.option_count + 5
"""


@pytest.fixture
def agents(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "strangers.py").write_text(AGENTS, encoding="utf-8")
    return tmp_path


def run(seats: list[str], games: int = 2, **kwargs) -> dict:
    rules = ruleset("trick_of_the_rails")
    return simulate(rules, 3, games, 5, rules.resolve_options({}, 3), seats=seats, jobs=1, **kwargs)


def outcomes(report: dict) -> list:
    return [(r["seed"], r["scores"], r["decisions"], r.get("late")) for r in report["results"]]


def test_an_isolated_agent_plays_the_same_games_as_in_this_process():
    """Its worlds come back as snapshots of the worlds dealt here: same moves, same games."""
    seats = [FLAT, "mcts:iterations=10", "random"]
    here = outcomes(run(seats, games=1, isolate="none"))
    assert outcomes(run(seats, games=1, isolate="files")) == here
    assert outcomes(run(seats, games=1, isolate="all")) == here
    assert all(late is None for *_, late in here)


@pytest.mark.parametrize("what, told", [(0, "the ruleset Trick of the Rails is read-only once loaded; 'score' "
                                             "cannot be set"), (1, "the card B&O 1 is read-only; 'label' cannot be set")])
def test_the_rules_and_cards_of_a_world_are_read_only_in_any_process(agents, what, told):
    seats = [f"strangers.py:Writer:what={what}", "random", "random"]
    with pytest.raises(AttributeError, match=told):
        run(seats, games=1, isolate="none")
    assert told in run(seats, games=1)["results"][0]["error"]


def test_an_isolated_agent_that_goes_around_the_guard_changes_only_its_own_process(agents):
    """In one process nothing stops it (the real game would score 1000): that is the threat
    model of docs/python-api.md. Isolated, it rewrites the rules of its own copy."""
    isolated = run(["strangers.py:Rewriter", "random", "random"])
    assert all("error" not in r and r["scores"]["P1"] < 1000 for r in isolated["results"])


def test_an_isolated_agent_finds_no_game_of_its_own_but_the_worlds_it_makes(agents, monkeypatch):
    report = agents / "snoop.jsonl"
    monkeypatch.setenv("SNOOP_REPORT", str(report))
    run(["strangers.py:Snoop", "random", "random"], games=1, isolate="none")
    seen_here = [json.loads(line) for line in report.read_text().splitlines()]
    assert any(seen_here)  # in one process, the real game is an object away
    report.unlink()
    run(["strangers.py:Snoop", "random", "random"], games=1)
    assert not any(json.loads(line) for line in report.read_text().splitlines())


def test_a_seat_over_its_time_limit_gets_a_random_option_and_the_run_says_so(agents, capfd):
    report = run(["strangers.py:Sleeper:wait=30", "random", "random"], games=1, time_limit=0.3, max_decisions=6)
    record = report["results"][0]
    assert "error" not in record and record["late"]["P1"] >= 1, record.get("error")
    told = capfd.readouterr().err
    assert "engine: seat P1 (strangers.py:Sleeper:wait=30) gave no answer within 0.3 s; a random option was " \
           "played for it" in told


@pytest.mark.parametrize("agent, told", [
    ("Faulty", "seat 'strangers.py:Faulty' (isolated): ValueError: no idea"),
    ("Wrong", "seat 'strangers.py:Wrong' (isolated) answered "),
])
def test_an_isolated_agent_that_fails_fails_its_game_with_one_line(agents, agent, told):
    record = run([f"strangers.py:{agent}", "random", "random"], games=1)["results"][0]
    assert told in record["error"] and "\n" not in record["error"]


def test_an_isolated_seat_that_cannot_be_made_is_refused_before_any_game(agents):
    (agents / "broken.py").write_text("class Bot(:\n", encoding="utf-8")
    line = one_line_error(engine("simulate", TRICK, "--players", "3", "--games", "2", "--seats",
                                 "broken.py:Bot,random,random", cwd=agents))
    assert "broken.py:1:" in line and "invalid syntax (seat 'broken.py:Bot')" in line
    with pytest.raises(EngineError, match="cannot import nowhere.py"):
        from engine.players.isolation import IsolatedAgent
        rules = ruleset("trick_of_the_rails")
        IsolatedAgent("nowhere.py:Nobody", 0, 1, Isolation(rules.loaded_as, [], rules.digest))
