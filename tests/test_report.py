"""Balance reports (engine/report.py, engine/report_html.py, `engine report`): shares, intervals
and spreads against values computed by hand from small results files in tests/fixtures/runs/.

small.jsonl: 3 players (mcts, random, random), 6 games planned, written out of order, with a
blank line; game 1 is a win shared by P1 and P2, game 2 failed. truncated.jsonl: the same
stopped while writing game 6. damaged.jsonl: a cut line in the middle (line 4).
"""
from __future__ import annotations

import base64
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from engine.analysis.report import build_report, findings, read_jsonl, render_text, sparkline
from engine.core.errors import EngineError
from test_cli import engine, one_line_error

RUNS = Path(__file__).resolve().parent / "fixtures" / "runs"
SMALL, TRUNCATED, DAMAGED = RUNS / "small.jsonl", RUNS / "truncated.jsonl", RUNS / "damaged.jsonl"
RULESET = Path(__file__).resolve().parent.parent / "rulesets" / "trick_of_the_rails.yaml"


def report_of(path: Path) -> dict:
    results = read_jsonl(path)
    return build_report(results.records, results.run, results.warnings)


def interval(row: dict) -> tuple[float, float, float]:
    return row["share"], row["low"], row["high"]


# ------------------------------------------------------------------ the numbers


def test_win_shares_count_a_shared_win_as_a_half_and_leave_out_the_failed_game():
    r = report_of(SMALL)
    assert r["games"] == {"planned": 6, "played": 5, "failed": 1}
    # P1: game 3, game 4 and half of game 1; P2: game 6 and the other half; P3: game 5.
    # Intervals: Wilson's formula by hand with z = 1.96 over the 5 games played.
    seats = r["win_share_by_seat"]
    assert [(s["seat"], s["bot"], s["wins"]) for s in seats] == [("P1", "mcts", 2.5), ("P2", "random", 1.5),
                                                                  ("P3", "random", 1.0)]
    for row, expected in zip(seats, [(0.5, 0.1704, 0.8296), (0.3, 0.0726, 0.7012), (0.2, 0.0362, 0.6245)]):
        assert interval(row) == pytest.approx(expected, abs=5e-5)


def test_win_shares_by_turn_position_follow_each_games_turn_order():
    # Position 1 (first to decide): half of game 1 (P1), game 4 (P1), game 5 (P3), game 6 (P2);
    # position 2: the other half of game 1 (P2); position 3: game 3 (P1 decided last).
    positions = report_of(SMALL)["win_share_by_turn_position"]
    assert [p["wins"] for p in positions] == [3.5, 0.5, 1.0]
    for row, expected in zip(positions, [(0.7, 0.2988, 0.9274), (0.1, 0.0105, 0.5371), (0.2, 0.0362, 0.6245)]):
        assert interval(row) == pytest.approx(expected, abs=5e-5)


def test_scores_lengths_and_end_reasons():
    r = report_of(SMALL)
    p1 = r["score_by_seat"][0]  # 8, 10, 12, 1, 0 in games 1, 3, 4, 5, 6
    assert (p1["mean"], p1["min"], p1["median"], p1["max"]) == (6.2, 0, 8, 12)
    assert p1["sd"] == pytest.approx(math.sqrt(116.8 / 4))
    length = r["length"]  # 40, 45, 50, 60, 70
    assert [length[k] for k in ("min", "q1", "median", "q3", "max", "mean")] == [40, 45, 50, 60, 70, 53]
    assert sum(b["games"] for b in length["histogram"]) == 5
    assert r["end_reasons"] == [{"reason": "last trick", "games": 3, "share": 0.6},
                                {"reason": "deck", "games": 2, "share": 0.4}]
    assert r["failures"] == [{"game": 2, "seed": 202, "error": "division by zero (in score)",
                              "reproduce": "engine play rulesets/trick_of_the_rails.yaml --players 3 --seed 202 "
                                           "--seats mcts,random,random --option expert=false"}]


def test_a_cut_last_line_is_a_warning_and_the_run_is_said_to_be_incomplete():
    results = read_jsonl(TRUNCATED)
    assert sorted(r["game"] for r in results.records) == [1, 2, 3, 4, 5]
    assert len(results.warnings) == 1 and f"{TRUNCATED}:8:" in results.warnings[0]
    r = build_report(results.records, results.run, results.warnings)
    assert r["games"] == {"planned": 6, "played": 4, "failed": 1}
    assert "Only 5 of the 6 games planned are in the file" in render_text(r)


@pytest.mark.parametrize("lines, expected", [
    (["{\"game\": 1, \"scores\": {\"P1\": 1,"], "damaged line"),          # cut, then more lines
    (["[1, 2]"], "not a game record"),
    (["{\"game\": 1, \"scores\": {\"P1\": 1}, \"winners\": [], \"turn_order\": [], \"decisions\": 3, "
      "\"end_reason\": \"x\"}"], "'scores' must give a number for each of P1, P2, P3"),
    (["{\"game\": 1, \"scores\": {\"P1\": 1, \"P2\": 1, \"P3\": 1}, \"winners\": [\"P9\"], "
      "\"turn_order\": [], \"decisions\": 3, \"end_reason\": \"x\"}"], "'winners' must list distinct players"),
    (['{"game": 1, "error": "boom"}', '{"game": 1, "error": "boom"}'], "game 1 again (first at line 2)"),
    (["{\"game\": 1, \"scores\": {\"P1\": 1, \"P2\": 1, \"P3\": 1}, \"winners\": [], \"turn_order\": [], "
      "\"decisions\": 3, \"end_reason\": \"x\", \"breakdown\": {\"P1\": {\"cards\": \"1\"}}}"],
     "'breakdown' must give numbered parts for each of P1, P2, P3"),
])
def test_a_bad_line_before_the_last_is_an_error_with_its_line_number(tmp_path, lines, expected):
    path = tmp_path / "runs.jsonl"
    header = SMALL.read_text(encoding="utf-8").splitlines()[0]
    path.write_text("\n".join([header, *lines, '{"game": 9, "error": "boom"}']) + "\n", encoding="utf-8")
    with pytest.raises(EngineError, match=r":\d:") as err:
        read_jsonl(path)
    assert expected in str(err.value)
    line = 3 if "again" in expected else 2
    assert f"{path}:{line}:" in str(err.value)


def test_the_damaged_fixture_names_line_4():
    with pytest.raises(EngineError, match=rf"^{DAMAGED}:4: damaged line"):
        read_jsonl(DAMAGED)


@pytest.mark.parametrize("text, expected", [
    ("", "empty"),
    ("name: x\nplayers: [3]\n", "not a simulation's results"),
    ('{"format": "engine-save/2"}\n', "not a simulation's results"),
    ('{"run": {"players": 3, "seats": ["random"]}}\n', "one of 'seats' per player"),
])
def test_a_file_that_is_no_results_file_is_said_so(tmp_path, text, expected):
    path = tmp_path / "x.jsonl"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(EngineError, match=expected):
        read_jsonl(path)


# ------------------------------------------------------------------ the text


def games(wins_of_p1: int, total: int) -> list[dict]:
    """`total` games of 3 players, P1 (first to decide) winning the first `wins_of_p1`, the
    others shared out evenly between P2 and P3."""
    return [{"game": i + 1, "seed": i, "scores": {"P1": 0, "P2": 0, "P3": 0},
             "winners": ["P1"] if i < wins_of_p1 else ["P2" if i % 2 else "P3"],
             "turn_order": ["P1", "P2", "P3"], "decisions": 10 + i % 7, "end_reason": "last trick"}
            for i in range(total)]


RUN = {"ruleset": "r.yaml", "name": "Some Game", "players": 3, "seats": ["random"] * 3, "seed": 1, "games": 90}


def test_text_has_aligned_rows_and_a_sentence_only_for_an_interval_that_leaves_out_the_even_share():
    text = render_text(build_report(games(45, 90), RUN))  # 50% [39.9%, 60.1%] against 33.3%
    assert "  P1  random  50.0%  [39.9%, 60.1%]  45.0" in text
    assert "  1  50.0%  [39.9%, 60.1%]  45.0" in text
    assert "P1 (random) wins 50.0% [39.9%, 60.1%], above the 33.3% of an even game." in text
    assert "turn position 1 wins 50.0% [39.9%, 60.1%], above the 33.3% of an even game." in text
    assert "P2 (random) wins" not in text  # 25.0% [17.2%, 34.9%]: an even game cannot be told apart
    even = render_text(build_report(games(30, 90), RUN))  # exactly a third
    assert "an even game." not in even and "  P1  random  33.3%  [24.5%, 43.6%]  30.0" in even


def test_an_interval_printed_as_touching_the_even_share_gets_no_sentence():
    # P1's interval ends at 0.3331, below a third but printed as 33.3%, the even share.
    r = build_report(games(30, 90), RUN)
    r["win_share_by_seat"][0].update(share=0.31, low=0.2869, high=0.3331)
    r["win_share_by_seat"][1].update(share=0.31, low=0.2869, high=0.3320)
    found = findings(r)
    assert not any(f.startswith("P1 ") for f in found)
    assert found == ["P2 (random) wins 31.0% [28.7%, 33.2%], below the 33.3% of an even game."]


def test_text_of_the_fixture():
    text = render_text(report_of(SMALL))
    assert "5 games played, 1 failed (6 planned)" in text
    assert "              share  95% interval    wins" in text
    assert "  P1  mcts    50.0%  [17.0%, 83.0%]   2.5" in text
    assert "  P2  random  30.0%  [ 7.3%, 70.1%]   1.5" in text
    assert "  2  10.0%  [ 1.1%, 53.7%]   0.5" in text
    assert "  min  q1  median  q3  max  mean" in text and "   40  45      50  60   70  53.0" in text
    assert "  last trick  3  60.0%" in text
    assert "game 2: division by zero (in score)" in text and "--seed 202" in text
    assert "1 game(s) failed with an error; they are not counted above." in text
    assert "an even game." not in text  # 5 games: every interval holds a third


def test_game_length_histogram_is_one_line_of_bars():
    assert sparkline([0, 1, 4, 8]) == " ▁▄█"
    line = next(line for line in render_text(build_report(games(30, 90), RUN)).splitlines() if "|" in line)
    # lengths 10..16: 13 games each but 12 of 16, a bar a little lower
    assert line == "  10 |██████▇| 16   (bins of 1 decision)"
    assert render_text(report_of(SMALL), ascii_only=True).isascii()


def test_no_game_played():
    r = build_report([{"game": 1, "seed": 1, "error": "boom", "reproduce": "engine play x"}], RUN)
    assert r["win_share_by_seat"] is None
    text = render_text(r)
    assert "0 games played, 1 failed (90 planned)" in text and "engine play x" in text


# ------------------------------------------------------------------ the command


def test_engine_report_help():
    proc = engine("report", "--help")
    text = " ".join(proc.stdout.split())  # as argparse wrapped it
    assert proc.returncode == 0
    for words in ("FILE.jsonl", "--json", "--html", "95% Wilson interval", "pip install matplotlib",
                  "docs/balance.md"):
        assert words in text
    assert "report" in engine("--help").stdout


def test_engine_report_prints_the_text():
    proc = engine("report", SMALL)
    assert proc.returncode == 0 and proc.stderr == ""
    assert "Win share by turn position" in proc.stdout
    assert "  P3  random  20.0%  [ 3.6%, 62.4%]   1.0" in proc.stdout


def test_engine_report_json_is_the_report():
    proc = engine("report", SMALL, "--json")
    assert proc.returncode == 0
    assert json.loads(proc.stdout) == json.loads(json.dumps(report_of(SMALL)))


def test_engine_report_warns_of_a_cut_last_line():
    proc = engine("report", TRUNCATED)
    assert proc.returncode == 0
    assert proc.stderr.startswith(f"warning: {TRUNCATED}:8: the last line is incomplete")


@pytest.mark.parametrize("path, expected", [
    (RUNS / "nothing.jsonl", "nothing.jsonl: no such file"),
    (RULESET, "not a simulation's results"),
    (DAMAGED, "damaged.jsonl:4: damaged line"),
    (RUNS, "cannot read"),
])
def test_engine_report_errors_are_one_line(path, expected):
    assert expected in one_line_error(engine("report", path))


def test_html_without_matplotlib_says_how_to_install_it(tmp_path):
    code = ("import sys; sys.modules['matplotlib'] = None; from engine.cli import main; "
            f"sys.exit(main(['report', {str(SMALL)!r}, '--html', {str(tmp_path / 'r.html')!r}]))")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and proc.stderr == "engine: --html needs matplotlib: pip install matplotlib\n"
    assert not (tmp_path / "r.html").exists()


def test_html_is_one_self_contained_page(tmp_path):
    pytest.importorskip("matplotlib")
    page = tmp_path / "report.html"
    proc = engine("report", SMALL, "--html", page)
    assert proc.returncode == 0 and "Win share by seat" in proc.stdout
    text = page.read_text(encoding="utf-8")
    assert 'src="http' not in text and "<link" not in text and "<script" not in text
    images = text.split('src="data:image/png;base64,')[1:]
    assert len(images) == 4  # by seat, by turn position, scores, game length
    assert all(base64.b64decode(i.split('"')[0]).startswith(b"\x89PNG") for i in images)
    for words in ("<td>P1 (mcts)</td><td>50.0%</td><td>[17.0%, 83.0%]</td><td>2.5</td>",
                  'alt="win share by turn position with 95% intervals"',
                  "division by zero (in score)", "last trick"):
        assert words in text


def test_a_turn_position_is_no_finding_when_the_seats_are_not_alike():
    """Only seat 1 a bot: position 1's share is mostly the bot's, not the rules' (issue 44)."""
    run = {**RUN, "seats": ["mcts", "random", "random"]}
    found = findings(build_report(games(45, 90), run))
    assert "P1 (mcts) wins 50.0% [39.9%, 60.1%], above the 33.3% of an even game." in found
    assert not any(f.startswith("turn position") for f in found)


def test_the_html_page_has_the_mean_score_by_part(tmp_path):
    pytest.importorskip("matplotlib")
    from engine.analysis.report_html import html_page
    report = build_report(games(30, 90), RUN)
    report["breakdown_by_seat"] = [{"seat": f"P{i}", "bot": "random", "mean": {"pearls": 2.0 * i, "catch": 1.5}}
                                   for i in (1, 2, 3)]
    page = html_page(report)
    assert "Mean score by part" in page and "<td>P2 (random)</td><td>4.0</td><td>1.5</td>" in page.replace("\n", "")
