"""A rule that fails in a world a bot imagines never fails the real game (players/worlds.py).

tests/fixtures/imagined_failure.yaml is right in every real game and fails in the worlds bots
deal (a hidden tile that stands for state is dealt to a player it does not fit). Every kind of
bot plays it to its end; a bot whose every world fails still answers; the rules' own failures
in the real game are reported as before; and a run says once how many worlds failed.
"""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys

import pytest

from engine.analysis.simulate import simulate
from engine.core.errors import EffectError, IllegalMove, Location
from engine.players import worlds
from engine.players.scout import ScoutAgent
from engine.players.search import GreedyAgent, MctsAgent
from engine.players.worlds import MOST_FAILED, Tally, Worlds
from engine.rules.ruleset import load_ruleset

from conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "imagined_failure.yaml"
FLAT = f"{ROOT / 'examples' / 'agents' / 'flat_monte_carlo.py'}:FlatMonteCarlo:playouts=2"
FAILS_AT = f"{FIXTURE}:60:15: first() of an empty zone aside P"  # the rule that fails in worlds
# The shipped bots, with small budgets.
SEATS = {"random": "random", "greedy": "greedy:tries=2", "mcts": "mcts:iterations=20:depth=0",
         "scout": "scout:lines=6:worlds=3", "scout play-outs": "scout:playouts=6"}
# What test_simulate_runs.py's failing ruleset is: tiny.yaml, where playing Amber fails in every game.
FAILING = (ROOT / "tests" / "fixtures" / "tiny.yaml").read_text(encoding="utf-8").replace(
    "          move(c, pile)\n",
    "          if c.name == \"Amber\":\n              fail(\"Amber may not be played\")\n          move(c, pile)\n")


def engine(*args, cwd=ROOT) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "engine", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, timeout=300)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


@pytest.fixture(scope="module")
def rules():
    return load_ruleset(FIXTURE)


def said_of_worlds(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "imagined worlds" in line]


@pytest.mark.parametrize("kind", list(SEATS))
def test_every_bot_plays_to_its_end_a_game_whose_rules_fail_only_in_its_worlds(rules, kind):
    before = worlds.tally.copy()
    report = simulate(rules, 3, 2, 1, rules.resolve_options({}, 3), seats=[SEATS[kind]] * 3, isolate="none")
    assert [r.get("error") for r in report["results"]] == [None, None]
    assert [r["end_reason"] for r in report["results"]] == ["flow ended"] * 2
    if kind != "random":  # (random thinks in no world)
        assert worlds.tally.failed > before.failed, "no world failed: the test could not fail"
        assert worlds.tally.worlds - before.worlds > worlds.tally.failed - before.failed


def test_an_isolated_agent_plays_it_too_and_its_failed_worlds_are_counted_here(rules):
    """The flat Monte Carlo example, in a process of its own: its worlds are counted there and
    sent back with its choices."""
    before = worlds.tally.copy()
    report = simulate(rules, 2, 1, 3, rules.resolve_options({}, 2), seats=[FLAT, "random"], isolate="files")
    assert "error" not in report["results"][0] and report["results"][0]["end_reason"] == "flow ended"
    assert worlds.tally.failed > before.failed, "no failed world was told from the isolated process"


class FailingView:
    """A view of three options whose every world fails as it is dealt."""

    player, option_count = 1, 3

    def world(self, seed: int, log: bool = True):
        raise EffectError("first() of an empty list", Location("drafting.yaml", 212, 9), "procedure reveal_all")


def _flat(seed: int):
    from examples.agents.flat_monte_carlo import FlatMonteCarlo
    return FlatMonteCarlo(seed=seed, playouts=4)


@pytest.mark.parametrize("make", [GreedyAgent, MctsAgent, ScoutAgent, lambda seed: ScoutAgent(seed, playouts=8),
                                  _flat], ids=["greedy", "mcts", "scout", "scout play-outs", "flat monte carlo"])
def test_a_bot_whose_every_world_fails_still_answers_after_a_bounded_number(make):
    before = worlds.tally.copy()
    answers = {make(seed=seed).choose(FailingView()) for seed in range(12)}
    assert answers <= {0, 1, 2}
    if make is not _flat:  # (the example breaks ties by the first option)
        assert len(answers) > 1, "a random legal option, not always the same"
    assert worlds.tally.failed - before.failed == 12 * MOST_FAILED
    assert worlds.tally.since(before)["worlds"] == 12 * MOST_FAILED


def test_a_dropped_world_is_replaced_and_a_bots_own_mistake_is_not_swallowed(rules):
    from engine import Game, view
    game = Game(rules, 2, rules.resolve_options({}, 2), 5)
    thinking = Worlds(view(game, 1), __import__("random").Random(1))
    tries = []

    def work(world):
        tries.append(world)
        if len(tries) < 3:
            raise EffectError("fails here", Location("x.yaml", 1, 1))
        return "done"
    before = worlds.tally.copy()
    assert thinking.think(work) == "done" and len(tries) == 3 and len({id(w) for w in tries}) == 3
    assert worlds.tally.since(before) == {"worlds": 3, "failed": 2, **({} if before.failed else
                                                                      {"first": "x.yaml:1:1: fails here"})}
    assert thinking.failed == 0, "a world that worked ends the run of failures"
    with pytest.raises(IllegalMove):
        thinking.think(lambda world: world.apply(99))


def test_counts_sent_by_another_process_are_taken_only_as_counts():
    tally = Tally()
    for sent in (None, [], {"worlds": "7"}, {"worlds": -1}, {"failed": 1.5}, {"worlds": 1, "first": 3},
                 {"worlds": 1 << 70}):
        tally.add(sent)
    assert tally == Tally()
    tally.add({"worlds": 5, "failed": 2, "first": "a.yaml:1:2: \x1b[2Jno" + "x" * 500})
    assert (tally.worlds, tally.failed, tally.first) == (5, 2, "a.yaml:1:2: [2Jno" + "x" * 282)


def test_a_run_says_once_how_many_worlds_failed_with_processes_as_without():
    counted = []
    for jobs in ("1", "2"):
        proc = engine("simulate", FIXTURE, "--players", "3", "--games", "4", "--seed", "1", "--jobs", jobs,
                      "--seats", "greedy:tries=2,random,scout:lines=6:worlds=3")
        assert proc.returncode == 0, proc.stderr
        lines = said_of_worlds(proc.stderr)
        assert len(lines) == 1 and proc.stderr.splitlines()[-1] == lines[0], proc.stderr
        found = re.fullmatch(r"engine: the rules failed in ([\d,]+) of ([\d,]+) imagined worlds \(.*\): first at "
                             r"(.*); a rule relies on something its player cannot know \(docs/python-api\.md.*\)",
                             lines[0])
        assert found, lines[0]
        assert found[3].startswith(FAILS_AT) and found[3].endswith(" (in flow)")
        counted.append(found.groups()[:2])
    assert counted[0] == counted[1], "the worlds of the worker processes are all counted"
    quiet = engine("simulate", ROOT / "tests" / "fixtures" / "tiny.yaml", "--players", "2", "--games", "2",
                   "--seats", "greedy,scout")
    assert quiet.returncode == 0 and not said_of_worlds(quiet.stderr), "nothing is said where no world failed"


@pytest.mark.parametrize("command", [["cards", "--card", "One", "--seats", "random,greedy:tries=1"],
                                     ["compare", "--seats", "random,greedy:tries=1", "--against"],
                                     ["ladder", "--agents", "random,greedy:tries=1"]], ids=lambda c: c[0])
def test_cards_compare_and_ladder_say_it_once_too(command):
    proc = engine(command[0], FIXTURE, "--players", "2", "--games", "2", "--seed", "1", *command[1:])
    assert proc.returncode == 0, proc.stderr
    assert len(said_of_worlds(proc.stderr)) == 1, proc.stderr


def test_engine_play_says_it_once_at_the_end_of_the_game():
    proc = engine("play", FIXTURE, "--players", "2", "--seed", "4", "--seats", "greedy:tries=2,mcts:iterations=20")
    assert proc.returncode == 0, proc.stderr
    assert "Game over" in proc.stdout
    assert len(said_of_worlds(proc.stderr)) == 1


def test_a_rule_that_fails_in_the_real_game_is_reported_as_before(tmp_path):
    """Playing Amber fails in the real game (and in worlds too): the game's record and the replay
    command say the real game's error as they did, with a bot seat as with random ones."""
    failing = tmp_path / "failing.yaml"
    failing.write_text(FAILING, encoding="utf-8")
    proc = engine("simulate", failing, "--players", "2", "--games", "6", "--seed", "1", "--json",
                  "--seats", "greedy:tries=1,random", cwd=tmp_path)
    assert proc.returncode == 1
    failed = [r for r in json.loads(proc.stdout)["results"] if "error" in r]
    assert failed, "no game failed: the test could not fail"
    first = failed[0]
    assert first["error"] == f"{failing}:39:15: error: Amber may not be played (in flow)"
    said = proc.stderr.splitlines()
    assert said[0] == (f"engine: the rules failed in {len(failed)} of 6 games; game {first['game']}: "
                       f"{first['error']}; replay it with: {first['reproduce']}")
    replayed = engine(*shlex.split(first["reproduce"])[1:], cwd=tmp_path)
    assert replayed.returncode == 1
    assert replayed.stderr.splitlines()[0] == first["error"]
    assert "on an error" in replayed.stdout
