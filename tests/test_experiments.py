"""compare (two variants on the same seeds) and ladder (every pair of agents)."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from engine.analysis.experiments import Variant, _signed, compare, ladder, render_compare, render_ladder
from engine.rules.ruleset import load_ruleset

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_cli import TINY, TRICK, engine  # noqa: E402

RULES = load_ruleset(TRICK)
RANDOM4 = ["random"] * 4


def variant(label: str, **given: str) -> Variant:
    return Variant(label, RULES, RULES.resolve_options(given, 4))


def test_a_variant_against_itself_changes_nothing_at_all():
    """The same seeds play the same games: every paired difference is exactly zero."""
    result = compare(variant("a"), variant("b"), 4, 30, 7, RANDOM4, None)
    assert result["pairs"] == 30
    for seat in ("P1", "P2", "P3", "P4"):
        assert result["win_share"][seat]["diff"] == 0 and not result["win_share"][seat]["detectable"]
        assert result["score"][seat]["diff"] == 0
    assert render_compare(result).endswith("verdict: no change detectable at 95% in 30 games")


def test_a_real_change_is_detected_with_its_sign():
    """Expert mode (cities and locomotives shuffled together) lowers every score a lot."""
    result = compare(variant("expert", expert="true"), variant("plain"), 4, 100, 1, RANDOM4, None)
    for seat in ("P1", "P2", "P3", "P4"):
        score = result["score"][seat]
        assert score["detectable"] and score["diff"] < 0 and score["changed"] < score["base"]
        assert score["diff"] == pytest.approx(score["changed"] - score["base"])
    text = render_compare(result)
    assert "verdict: P1 scores -" in text and "P1 " in text


def test_a_difference_that_rounds_to_nothing_has_no_minus_sign():
    assert [_signed(v, True) for v in (-0.0004, 0.0, -0.02)] == ["+0.0%", "+0.0%", "-2.0%"]
    assert [_signed(v, False) for v in (-0.004, -0.37, 1.5)] == ["+0.00", "-0.37", "+1.50"]


def test_ladder_matrix_is_consistent():
    result = ladder(RULES, 4, ["random", "mcts:iterations=10:depth=0"], 6, 3, RULES.resolve_options({}, 4), None)
    cell = result["matrix"]["random"]["mcts:iterations=10:depth=0"]
    other = result["matrix"]["mcts:iterations=10:depth=0"]["random"]
    assert cell["games"] == other["games"] == 6
    assert cell["share"] + other["share"] == pytest.approx(1)
    assert cell["low"] <= cell["share"] <= cell["high"]
    assert other["low"] == pytest.approx(1 - cell["high"])
    text = render_ladder(result)
    assert "row's win share against column" in text and "mcts:iterations=10:depth=0" in text


def test_ladder_points_out_games_stopped_by_the_cap():
    result = ladder(RULES, 4, ["random", "greedy"], 4, 1, RULES.resolve_options({}, 4), 5)
    assert result["matrix"]["random"]["greedy"]["capped"] == 4
    assert "  4 of these 4 games were stopped by the decision cap" in render_ladder(result)
    uncapped = ladder(RULES, 4, ["random", "greedy"], 2, 1, RULES.resolve_options({}, 4), None)
    assert uncapped["matrix"]["random"]["greedy"]["capped"] == 0 and "decision cap" not in render_ladder(uncapped)


def test_ladder_counts_failed_games_apart(tmp_path):
    rules = tmp_path / "failing.yaml"
    rules.write_text(TINY.replace("          move(c, pile)\n", "          if c.name == \"Amber\":\n"
                                  "              fail(\"Amber may not be played\")\n          move(c, pile)\n"),
                     encoding="utf-8")
    failing = load_ruleset(rules)
    result = ladder(failing, 2, ["random", "greedy"], 12, 1, failing.resolve_options({}, 2), None)
    cell = result["matrix"]["random"]["greedy"]
    assert cell["failed"] > 0 and cell["games"] + cell["failed"] == 12
    assert f"  {cell['failed']} more failed with an error and are not counted" in render_ladder(result)


def test_compare_cli(tmp_path):
    proc = engine("compare", TRICK, "-n", "4", "-g", "20", "--seed", "2", "-o", "expert=true", "--against",
                  "-o", "expert=false", "--json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["pairs"] == 20 and data["changed"].endswith("(expert=true)")
    text = engine("compare", TRICK, "-n", "4", "-g", "20", "--seed", "2", "--against").stdout
    assert "verdict: no change detectable at 95% in 20 games" in text


@pytest.mark.parametrize("args, words", [
    (["compare", TRICK, "-n", "4", "-g", "10"], ["--against"]),
    (["compare", TRICK, "-n", "4", "-g", "10", "--against", "--bogus"], ["unrecognized", "--bogus"]),
    (["compare", TRICK, "-n", "4", "-g", "10", "--against", "-o", "nope=1"], ["nope"]),
    (["ladder", TRICK, "-n", "4", "--agents", "random"], ["at least two"]),
    (["ladder", TRICK, "-n", "4", "--agents", "random,mtcs"], ["mtcs", "mcts"]),
])
def test_bad_experiments_say_what_is_wrong(args, words):
    proc = engine(*args)
    assert proc.returncode in (1, 2)
    message = proc.stderr
    assert all(w in message for w in words), message


def test_ladder_cli():
    proc = engine("ladder", TRICK, "-n", "4", "--agents", "random,mcts:iterations=5:depth=0", "-g", "4", "--seed", "1")
    assert proc.returncode == 0, proc.stderr
    assert "Trick of the Rails: 4 players, 4 games a pair" in proc.stdout


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_compare_and_ladder_show_one_bar_for_the_whole_job(monkeypatch):
    """A bar per variant (or per pair) would say "0s left" at the end of the first: the time
    left must be the whole job's."""
    monkeypatch.setitem(sys.modules, "rich", None)  # the plain line, whose text a test can read
    shown = _Terminal()
    compare(variant("a"), variant("b"), 4, 3, 7, RANDOM4, None, progress=shown)
    counts = [line.split(" games")[0].strip() for line in shown.getvalue().split("\r") if " games" in line]
    assert counts[-1] == "6/6" and all(c.endswith("/6") for c in counts), counts
    shown = _Terminal()
    ladder(RULES, 4, ["random", "greedy:tries=1", "scout:lines=2:worlds=1"], 2, 1, RULES.resolve_options({}, 4), None,
           progress=shown)
    counts = [line.split(" games")[0].strip() for line in shown.getvalue().split("\r") if " games" in line]
    assert counts[-1] == "6/6" and all(c.endswith("/6") for c in counts), counts


def test_compare_plays_the_variants_in_turns_and_the_same_on_any_number_of_jobs():
    """Game 1 of each variant, then game 2 of each...: a variant whose games are slower does
    not play alone at first, where it would make the time left wrong. Processes change nothing."""
    from engine.analysis.run import RunSpec
    from engine.analysis.workers import play_side_by_side

    specs = [RunSpec.of(RULES, 4, RANDOM4, v.options, 5, None) for v in (variant("expert", expert="true"), variant("plain"))]
    order = [(side, record["game"]) for side, record in play_side_by_side(specs, [[1, 2, 3]] * 2, 1, [RULES, RULES])]
    assert order == [(0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)]
    one = compare(variant("expert", expert="true"), variant("plain"), 4, 12, 5, RANDOM4, None, jobs=1)
    two = compare(variant("expert", expert="true"), variant("plain"), 4, 12, 5, RANDOM4, None, jobs=2)
    assert one == two and one["score"]["P1"]["diff"] != 0
