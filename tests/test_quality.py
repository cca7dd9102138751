"""Game quality (engine/analysis/quality.py; the quality section of `engine report` and of the
report `engine simulate` prints): each measure on toy games whose value is known by
construction, run files written before the standings were recorded, and proof that recording
the standings leaves the games as they were."""
from __future__ import annotations

import json
import math
from dataclasses import replace

import pytest

from engine.analysis.quality import LONGEST_ROUND, MAX_POINTS, StandingsRecorder, quality
from engine.analysis.report import OLD_RUN, build_report, read_jsonl, render_text
from engine.analysis import run
from engine.analysis.run import RunSpec, _played
from engine.analysis.simulate import simulate
from engine.rules.ruleset import load_ruleset

from conftest import ROOT, random_play_options, ruleset
from test_cli import engine

ROUNDS = 6
# Two players, ROUNDS rounds; in each, P1 then P2 picks 1 or 2 (which changes nothing). GAIN
# says who gains a point; the heuristic, if any, is HEURISTIC.
TOY = """\
game: {name: Toy, players: [2]}
zones: {pile: {}}
counters:
  points: {per: player, initial: 0}
  round: {initial: 0}
flow: |
  for r in range(1, ROUNDS + 1):
      round = r
      for p in players:
          let x = choose(p, [1, 2], "Pick")
          GAIN
scoring:
  score: points[player]
HEURISTIC"""


def toy(tmp_path, gain: str, heuristic: str = "", rounds: int = ROUNDS):
    path = tmp_path / "toy.yaml"
    path.write_text(TOY.replace("ROUNDS", str(rounds)).replace("GAIN", gain)
                    .replace("HEURISTIC", f"  heuristic: {heuristic}\n" if heuristic else ""), encoding="utf-8")
    return load_ruleset(path)


def report_of(rules, games: int = 20) -> dict:
    run = simulate(rules, 2, games, 1, {}, standings=True)
    assert run["totals"]["errors"] == 0
    return build_report(run["results"], {"players": 2, "seats": ["random"] * 2, "games": games})


def mean(q: dict, name: str) -> float:
    return q[name]["mean"]


def test_a_game_the_first_player_always_wins(tmp_path):
    # P1 gains a point each round: P1 leads after every round and wins every game.
    rules = toy(tmp_path, "if p == 1:\n              points[p] += 1")
    q = report_of(rules)["quality"]
    record = simulate(rules, 2, 1, 1, {}, standings=True)["results"][0]
    assert record["rounds"] == ROUNDS
    assert record["standings"] == [[k, 0] for k in range(1, ROUNDS + 1)]  # after rounds 1..5, then the score
    assert q["with_standings"] == 20
    assert q["first_player_advantage"]["share"] == 1.0 and q["first_player_advantage"]["advantage"] == 0.5
    assert q["first_player_advantage"]["low"] > 0  # detected: the interval leaves out 0
    assert mean(q, "lead_changes") == 0 and mean(q, "lead_for_good") == 0.0
    assert mean(q, "uncertainty") == 0.0 and mean(q, "worst_deficit") == 0
    assert q["comebacks"]["share"] == 0 and q["ties"]["share"] == 0 and q["draws"]["share"] == 0
    assert mean(q, "decisions") == 2 * ROUNDS and mean(q, "rounds") == ROUNDS
    assert all(c["winner_leads"] == 1.0 for c in q["margin_curve"])


def test_a_game_whose_lead_changes_every_round(tmp_path):
    # A standing is taken as the next round begins: by the heuristic, P2 leads after rounds 1,
    # 3 and 5 (counter `round` is 2, 4, 6 then) and P1 after rounds 2 and 4; P1 wins by the
    # score at the end. So the lead changes at every round, and the winner leads for good only
    # at the end.
    q = report_of(toy(tmp_path, "if p == 1:\n              points[p] += 1",
                      "1 if (round % 2 == 1) == (player == 1) else 0"))["quality"]
    assert mean(q, "lead_changes") == ROUNDS - 1 and mean(q, "lead_changes_per_round") == 1.0
    assert mean(q, "lead_for_good") == 1.0
    assert mean(q, "uncertainty") == pytest.approx(1.0)  # each led half the rounds
    assert q["comebacks"]["share"] == 1.0 and mean(q, "worst_deficit") == 1


def test_a_game_that_is_always_a_tie(tmp_path):
    q = report_of(toy(tmp_path, "pass"))["quality"]
    assert q["draws"]["share"] == 1.0 and q["ties"]["share"] == 1.0
    assert q["first_player_advantage"]["advantage"] == 0.0  # position 1 has half of every win
    assert mean(q, "lead_changes") == 0 and mean(q, "uncertainty") == pytest.approx(1.0)
    # No game has a single winner: nobody's lead, comeback or deficit to measure.
    assert q["lead_for_good"] is None and q["comebacks"] is None and q["margin_curve"] is None


def test_a_long_game_keeps_a_standing_every_few_rounds(tmp_path):
    record = simulate(toy(tmp_path, "if p == 1:\n              points[p] += 1", rounds=300), 2, 1, 1, {}, standings=True)["results"][0]
    assert record["rounds"] == 300
    assert len(record["standings"]) <= MAX_POINTS and record["standings_every"] == 4
    # Every 4th round from the 4th on, then the final score: the series still ends at the end.
    assert record["standings"][0] == [4, 0] and record["standings"][-1] == [300, 0]


def test_a_game_whose_first_player_never_decides_again_has_rounds_of_decisions(tmp_path):
    # P1 decides once, then P2 100 times: a round ends every 2 x LONGEST_ROUND decisions.
    path = tmp_path / "one_turn.yaml"
    path.write_text(TOY.replace("ROUNDS", "1").replace("GAIN", "pass").replace("HEURISTIC", "")
                    .replace("      for p in players:\n          let x = choose(p, [1, 2], \"Pick\")",
                             "      let x = choose(1, [1, 2], \"Pick\")\n      repeat 100:\n"
                             "          let y = choose(2, [1, 2], \"Pick\")"), encoding="utf-8")
    record = simulate(load_ruleset(path), 2, 1, 1, {}, standings=True)["results"][0]
    assert record["decisions"] == 101 and 2 * LONGEST_ROUND == 40
    assert record["rounds"] == 3 and len(record["standings"]) == 3  # after decisions 40 and 80, the end


@pytest.mark.parametrize("heuristic", ["1 // (round - 3)",  # division by zero in round 3
                                       f"big\nconstants:\n  big: {9 * 10 ** 999}"])  # no float holds it
def test_a_heuristic_that_fails_mid_game_costs_the_standings_not_the_game(tmp_path, heuristic):
    rules = toy(tmp_path, "if p == 1:\n              points[p] += 1", heuristic)
    record = simulate(rules, 2, 1, 1, {}, standings=True)["results"][0]
    assert "error" not in record and record["winners"] == ["P1"] and "standings" not in record
    q = quality([record], 2)
    assert q["with_standings"] == 0 and q["lead_changes"] is None


class Unseen(StandingsRecorder):
    """A recorder checked to leave the rules' count of steps as it found it: a heuristic's
    steps must not bring the rules nearer their limit of steps between two decisions."""

    def __call__(self, game) -> None:
        steps = game.steps
        super().__call__(game)
        assert game.steps == steps


def test_recording_the_standings_changes_no_game(monkeypatch):
    # The same games, decision for decision and table for table, with the recorder and without:
    # each shipped ruleset's heuristic read after every round (by random seats, which never read
    # it themselves, and by a greedy seat, which reads it on copies of the game).
    for name, players, seats in (("trainsilvania", 3, ["greedy", "random", "random"]),
                                 ("trick_of_the_rails", 4, ["random"] * 4),
                                 ("isle_of_trains", 3, ["random"] * 3), ("railways", 4, ["random"] * 4)):
        rules = ruleset(name)
        spec = RunSpec.of(rules, players, seats, random_play_options(rules, players), 5)
        with monkeypatch.context() as patched:
            patched.setattr(run, "StandingsRecorder", Unseen)
            watched, _, noted = _played(rules, spec, 1, None)
        plain, _, nothing = _played(rules, replace(spec, standings=False), 1, None)
        assert watched.decisions == plain.decisions and watched.digest() == plain.digest(), name
        assert noted["rounds"] > 1 and len(noted["standings"]) > 1 and nothing == {}, name


def test_an_old_run_file_reports_what_needs_no_standings():
    results = read_jsonl(ROOT / "tests" / "fixtures" / "runs" / "small.jsonl")
    r = build_report(results.records, results.run, results.warnings)
    q = r["quality"]
    assert q["with_standings"] == 0 and q["lead_changes"] is None and q["uncertainty"] is None
    # Position 1 won 3.5 of the 5 games played (test_report.py): 70% against 33.3%.
    assert q["first_player_advantage"]["advantage"] == pytest.approx(0.7 - 1 / 3)
    assert q["ties"]["games"] == 1 and q["decisions"]["games"] == 5
    section = render_text(r).split("Game quality")[1].split("Failed games")[0]
    assert " ".join(OLD_RUN.split()) in " ".join(section.split())
    assert max(map(len, section.splitlines())) <= 80


def test_a_run_without_standings_says_what_it_lacks(tmp_path):
    out = tmp_path / "run.jsonl"
    engine("simulate", str(ROOT / "rulesets" / "trainsilvania.yaml"), "--players", "3", "--games", "3",
           "--seed", "4", "--out", str(out), "--no-standings")
    records = read_jsonl(out).records
    assert records and not any("standings" in r or "rounds" in r for r in records)
    text = " ".join(engine("report", str(out)).stdout.split())
    assert "first-player advantage" in text and " ".join(OLD_RUN.split()) in text
    assert "lead changes a game" not in text


def test_standings_are_recorded_by_default_unless_every_seat_is_random():
    # Random seats' games can take the heuristic 3 times as long to read as to play; a bot's
    # game hardly longer.
    rules = ruleset("trainsilvania")
    options = random_play_options(rules, 3)
    randoms = simulate(rules, 3, 2, 1, options)["results"]
    one_bot = simulate(rules, 3, 2, 1, options, seats=["random", "greedy", "random"])["results"]
    forced = simulate(rules, 3, 2, 1, options, standings=True)["results"]
    assert not any("standings" in r for r in randoms)
    assert all("standings" in r for r in one_bot) and all("standings" in r for r in forced)


def test_report_shows_the_quality_in_text_json_and_html(tmp_path):
    out, page = tmp_path / "run.jsonl", tmp_path / "report.html"
    engine("simulate", str(ROOT / "rulesets" / "trainsilvania.yaml"), "--players", "3", "--games", "12",
           "--seed", "4", "--out", str(out), "--standings")
    text = engine("report", str(out)).stdout
    section = text[text.index("Game quality"):].split("\n\n")[0]
    for measure in ("first-player advantage", "draws", "lead changes a game", "uncertainty",
                    "winner leads for good", "comebacks", "rounds a game"):
        assert measure in section
    assert max(map(len, section.splitlines())) <= 80
    data = json.loads(engine("report", str(out), "--json").stdout)["quality"]
    assert data["with_standings"] == 12 and len(data["margin_curve"]) == 21
    pytest.importorskip("matplotlib")
    engine("report", str(out), "--html", str(page))
    html = page.read_text(encoding="utf-8")
    quality_part = html[html.index("<h2>Game quality</h2>"):]
    assert "<td>lead changes a game</td>" in quality_part and "<td>winner leads for good</td>" in quality_part
    assert html.count("<img") == 6  # shares by seat and position, scores, lengths, and the two here


def test_of_two_games_each_interval_stays_within_what_its_measure_can_be():
    """Two games, one led by a seat throughout, one shared out: the normal approximation reached
    past 0 and 1 ("uncertainty 0.17 [-0.02, 0.35]" of issue 44)."""
    one_leader = [[1, 0], [2, 0], [3, 0]]
    shared = [[1, 0], [1, 2], [3, 2], [3, 4]]
    played = [{"winners": ["P1"], "turn_order": ["P1", "P2"], "decisions": 6, "standings": one_leader,
               "rounds": 3},
              {"winners": ["P2"], "turn_order": ["P2", "P1"], "decisions": 8, "standings": shared, "rounds": 4}]
    q = quality(played, 2)
    for name, most in [("uncertainty", 1), ("lead_for_good", 1), ("lead_changes", math.inf),
                       ("worst_deficit", math.inf), ("decisions", math.inf), ("rounds", math.inf)]:
        assert 0 <= q[name]["low"] <= q[name]["mean"] <= q[name]["high"] <= most, (name, q[name])
    assert q["uncertainty"]["low"] == 0  # cut at 0: the approximation went below it
