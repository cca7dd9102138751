"""The `engine` command line: help, play, replay, simulate, bad usage and a person at stdin.

Every run goes through a real subprocess (`python -m engine ...`), as a user would type it.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game.saves import DIGEST, content_digest, replay
from engine.game.view import view

ROOT = Path(__file__).resolve().parent.parent
TRICK = ROOT / "rulesets" / "trick_of_the_rails.yaml"

# A tiny game for the person-at-the-terminal tests: three decisions for P1 with 3, 2 and 1
# options (the last is taken without asking).
TINY = (ROOT / "tests" / "fixtures" / "tiny.yaml").read_text(encoding="utf-8")


def engine(*args: str, input: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "engine", *map(str, args)], input=input,
                          capture_output=True, text=True, encoding="utf-8", errors="replace",
                          cwd=cwd or ROOT, timeout=60)
    assert "Traceback" not in proc.stdout and "Traceback" not in proc.stderr, \
        f"a traceback reached the user:\n{proc.stdout}\n{proc.stderr}"
    return proc


def one_line_error(proc: subprocess.CompletedProcess) -> str:
    """The run failed with exactly one non-empty line on stderr; return it."""
    assert proc.returncode != 0
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected a one-line message, got:\n{proc.stderr}"
    return lines[0]


@pytest.fixture
def tiny(tmp_path) -> Path:
    path = tmp_path / "tiny.yaml"
    path.write_text(TINY, encoding="utf-8")
    return path


# ------------------------------------------------------------------ help


def test_top_level_help():
    proc = engine("--help")
    assert proc.returncode == 0
    for word in ("validate", "info", "play", "simulate", "replay"):
        assert word in proc.stdout


def test_console_script_help():
    exe = shutil.which("engine")
    if exe is None:
        pytest.skip("the 'engine' console script is not on PATH")
    proc = subprocess.run([exe, "--help"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and "simulate" in proc.stdout


@pytest.mark.parametrize("command,options", [
    ("validate", ["PATH"]),
    ("info", ["--with", "--json", "RULESET", "engine info rulesets/"]),
    ("play", ["--players", "--seed", "--option", "--seats", "--save", "--web", "RULESET"]),
    ("simulate", ["--players", "--seed", "--option", "--games", "--max-decisions", "--json", "--csv", "--jobs",
                  "--out", "--backend", "--address", "RULESET"]),
    ("replay", ["--ruleset", "--show", "--seat", "--referee", "FILE"]),
    ("serve", ["--port", "RULESET", "127.0.0.1", "docs/web.md"]),
])
def test_subcommand_help(command, options):
    proc = engine(command, "--help")
    assert proc.returncode == 0
    for option in options:
        assert option in proc.stdout, f"{command} --help does not mention {option}"


def test_no_command_prints_usage():
    proc = engine()
    assert proc.returncode != 0
    assert "usage" in (proc.stdout + proc.stderr).lower()


def test_version():
    proc = engine("--version")
    assert proc.returncode == 0
    assert re.search(r"\d+\.\d+", proc.stdout + proc.stderr)


# ------------------------------------------------------------------ play, save, replay


@pytest.fixture(scope="module")
def saved_game(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    folder = tmp_path_factory.mktemp("save")
    save = folder / "game.json"
    proc = engine("play", TRICK, "--players", "3", "--seats", "random,random,random", "--seed", "5",
                  "--save", save)
    return save, proc


def test_play_random_seats_finishes_and_saves(saved_game):
    save, proc = saved_game
    assert proc.returncode == 0, proc.stderr
    assert "\nGame over (last trick). Final scores:\n" in proc.stdout
    for seat in ("P1", "P2", "P3"):
        assert re.search(rf"^\s+{seat} \(random\)\s+-?\d+", proc.stdout, re.M), proc.stdout
    assert re.search(r"^Winner\(s\): P\d", proc.stdout, re.M)
    assert save.exists()
    data = json.loads(save.read_text())
    assert data["seed"] == 5 and data["players"] == 3
    assert data["decisions"] and all(isinstance(d, int) for d in data["decisions"])
    assert data["result"]["end_reason"] == data["state"]["end_reason"] == "last trick"


def test_play_is_deterministic(saved_game, tmp_path):
    save, first = saved_game
    again = engine("play", TRICK, "--players", "3", "--seats", "random,random,random", "--seed", "5",
                   "--save", tmp_path / "again.json")
    assert again.stdout.replace(str(tmp_path / "again.json"), "X") == \
        first.stdout.replace(str(save), "X")
    assert json.loads((tmp_path / "again.json").read_text())["decisions"] == \
        json.loads(save.read_text())["decisions"]


def test_replay_reproduces(saved_game):
    save, _ = saved_game
    proc = engine("replay", save)
    assert proc.returncode == 0
    assert "reproduces" in proc.stdout
    assert "warning" not in proc.stderr
    assert re.search(r"^Game over \(last trick\)\. Scores: P1 -?\d+", proc.stdout, re.M), proc.stdout


def test_replay_of_a_save_made_before_end_reasons(saved_game, tmp_path):
    """A save written before games had end reasons (none in its state or result) still
    reproduces, and the replay says why the game ended."""
    def without_reasons(data: dict) -> None:
        del data["state"]["end_reason"], data["result"]["end_reason"]
    proc = engine("replay", _edited(saved_game[0], tmp_path, without_reasons))
    assert proc.returncode == 0 and "reproduces exactly" in proc.stdout, proc.stdout + proc.stderr
    assert "Game over (last trick)." in proc.stdout


def test_replay_show_prints_table(saved_game):
    save, _ = saved_game
    proc = engine("replay", save, "--show")
    assert proc.returncode == 0
    assert "Trick of the Rails" in proc.stdout


def _edited(save: Path, tmp_path: Path, edit, reseal: bool = True) -> Path:
    """The save changed by `edit`; with `reseal`, with its digest worked out again, as whoever
    edits a save on purpose can: what the engine checks beyond the digest is then tested."""
    data = json.loads(save.read_text())
    edit(data)
    if reseal:
        data[DIGEST] = content_digest(data)
    out = tmp_path / "edited.json"
    out.write_text(json.dumps(data))
    return out


SAVE_EDITS = {
    "index-out-of-range": (lambda d: d["decisions"].__setitem__(3, 99), ["decision 4"]),
    "negative-index": (lambda d: d["decisions"].__setitem__(0, -1), ["decision 1"]),
    "index-is-a-string": (lambda d: d["decisions"].__setitem__(2, "1"), ["decisions"]),
    "index-is-a-float": (lambda d: d["decisions"].__setitem__(2, 1.5), ["decisions"]),
    "index-is-a-bool": (lambda d: d["decisions"].__setitem__(2, True), ["decisions"]),
    "decisions-not-a-list": (lambda d: d.__setitem__("decisions", "1,2,3"), ["decisions"]),
    "extra-decision": (lambda d: d["decisions"].append(0), ["decision"]),
    "no-seed": (lambda d: d.pop("seed"), ["seed"]),
    "players-unsupported": (lambda d: d.__setitem__("players", 7), ["7"]),
    "unknown-option": (lambda d: d["options"].__setitem__("nosuch", 1), ["nosuch"]),
    "wrong-format": (lambda d: d.__setitem__("format", "other/9"), ["format"]),
    "missing-ruleset": (lambda d: d.__setitem__("ruleset", "/nonexistent/rules.yaml"), ["rules.yaml"]),
    "wrong-result": (lambda d: d["result"].__setitem__("digest", "0" * 64), ["NOT reproduce"]),
    "wrong-end-reason": (lambda d: d["result"].__setitem__("end_reason", "deck"), ["NOT reproduce"]),
    "seed-of-40-digits": (lambda d: d.__setitem__("seed", 10**40), ["'seed' is not a seed"]),
    "seed-is-a-float": (lambda d: d.__setitem__("seed", 5.0), ["'seed' is missing or damaged"]),
    "result-is-a-list": (lambda d: d.__setitem__("result", [1, 2]), ["'result' is damaged"]),
    "result-is-a-string": (lambda d: d.__setitem__("result", "won"), ["'result' is damaged"]),
    "result-scores-a-list": (lambda d: d["result"].__setitem__("scores", [1]), ["'result' is damaged"]),
    "result-without-digest": (lambda d: d["result"].pop("digest"), ["'result' is damaged"]),
    "seats-not-texts": (lambda d: d.__setitem__("seats", [1, 2, 3]), ["'seats' must be a list of texts"]),
    "seats-a-text": (lambda d: d.__setitem__("seats", "human"), ["'seats' is damaged"]),
    "extensions-a-dict": (lambda d: d.__setitem__("extensions", {}), ["'extensions' is damaged"]),
    "state-a-list": (lambda d: d.__setitem__("state", []), ["'state' is damaged"]),
    "players-a-bool": (lambda d: d.__setitem__("players", True), ["'players' is missing or damaged"]),
    "ruleset-digest-a-number": (lambda d: d.__setitem__("ruleset_sha256", 5), ["'ruleset_sha256' is damaged"]),
}


@pytest.mark.parametrize("name", list(SAVE_EDITS))
def test_replay_of_edited_save_fails_clearly(name, saved_game, tmp_path):
    save, _ = saved_game
    edit, words = SAVE_EDITS[name]
    proc = engine("replay", _edited(save, tmp_path, edit))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    text = proc.stdout + proc.stderr
    for word in words:
        assert word in text, text
    assert len(text.strip().splitlines()) <= 2  # the error, or a replayed result and its verdict


@pytest.mark.parametrize("name", list(SAVE_EDITS))
def test_a_save_changed_by_hand_is_refused_by_its_digest(name, saved_game, tmp_path):
    save, _ = saved_game
    edited = _edited(save, tmp_path, SAVE_EDITS[name][0], reseal=False)
    message = one_line_error(engine("replay", edited))
    assert str(edited) in message
    assert "changed since it was written" in message or "not a save of this engine" in message, message


@pytest.mark.parametrize("digits", [5000, 40])
def test_a_save_with_a_seed_of_thousands_of_digits_is_refused_in_one_line(digits, saved_game, tmp_path):
    save, _ = saved_game
    data = json.loads(save.read_text())
    edited = tmp_path / "long.json"
    edited.write_text(save.read_text().replace(f'"seed": {data["seed"]}', '"seed": ' + "9" * digits, 1))
    message = one_line_error(engine("replay", edited))
    assert str(edited) in message and ("too long" in message or "changed since" in message), message


def test_replay_of_finished_save_with_decisions_cut_short_fails(saved_game, tmp_path):
    """A save that records a result must not pass when its decisions no longer reach it."""
    save, _ = saved_game
    proc = engine("replay", _edited(save, tmp_path, lambda d: d.__setitem__("decisions", d["decisions"][:10])))
    assert proc.returncode == 1, f"exit {proc.returncode}:\n{proc.stdout}{proc.stderr}"


@pytest.mark.parametrize("content", ["half", "empty", "not-json", "binary", "list"])
def test_replay_of_damaged_file_fails_clearly(content, saved_game, tmp_path):
    save, _ = saved_game
    text = save.read_text()
    bad = tmp_path / "bad.json"
    payload = {"half": text[: len(text) // 2], "empty": "", "not-json": "decisions: [1, 2]",
               "binary": None, "list": "[1, 2, 3]"}[content]
    if payload is None:
        bad.write_bytes(b"\x00\xff\xfe garbage")
    else:
        bad.write_text(payload)
    proc = engine("replay", bad)
    message = one_line_error(proc)
    assert proc.returncode == 1
    assert str(bad) in message


def test_replay_of_missing_file(tmp_path):
    proc = engine("replay", tmp_path / "nosuch.json")
    assert proc.returncode == 1
    assert "nosuch.json" in one_line_error(proc)


def test_replay_warns_when_ruleset_changed(tmp_path):
    rules = tmp_path / "rails.yaml"
    rules.write_text(TRICK.read_text(encoding="utf-8"), encoding="utf-8")
    save = tmp_path / "g.json"
    proc = engine("play", rules, "--players", "4", "--seats", "random,random,random,random", "--seed", "2",
                  "--save", save)
    assert proc.returncode == 0
    assert "warning" not in engine("replay", save).stderr
    with rules.open("a", encoding="utf-8") as f:
        f.write("\n# an edit after the game was saved\n")
    proc = engine("replay", save)
    assert "warning" in proc.stderr and "changed" in proc.stderr
    assert proc.returncode == 0 and "reproduces" in proc.stdout


def test_replay_with_other_ruleset_option(saved_game, tmp_path):
    save, _ = saved_game
    copy = tmp_path / "copy.yaml"
    copy.write_text(TRICK.read_text(encoding="utf-8"), encoding="utf-8")
    data = json.loads(save.read_text())
    data["ruleset"] = "/nonexistent/rules.yaml"
    data[DIGEST] = content_digest(data)
    moved = tmp_path / "moved.json"
    moved.write_text(json.dumps(data))
    proc = engine("replay", moved, "--ruleset", copy)
    assert proc.returncode == 0 and "reproduces" in proc.stdout


# ------------------------------------------------------------------ simulate


SIMULATE = ["simulate", TRICK, "--players", "3", "--games", "5", "--seed", "3", "--json"]


@pytest.fixture(scope="module")
def simulation() -> dict:
    proc = engine(*SIMULATE)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_simulate_json(simulation):
    report = simulation
    assert isinstance(report, dict)
    results = report["results"]
    assert len(results) == 5
    for r in results:
        assert isinstance(r["seed"], int)
        assert set(r["scores"]) == {"P1", "P2", "P3"}
        assert r["winners"] and set(r["winners"]) <= {"P1", "P2", "P3"}
        best = max(r["scores"].values())
        assert all(r["scores"][w] == best for w in r["winners"])
        assert r["end_reason"] == "last trick"
    wins = report["totals"]["wins_by_seat"]
    assert set(wins) == {"P1", "P2", "P3"}
    assert sum(wins.values()) == pytest.approx(5)
    assert report["totals"]["games_by_end_reason"] == {"last trick": 5}
    assert report["max_decisions"] == 5000


def test_simulate_is_deterministic(simulation):
    again = json.loads(engine(*SIMULATE).stdout)
    assert again["results"] == simulation["results"]
    for key in ("wins_by_seat", "mean_score_by_seat", "mean_decisions"):
        assert again["totals"][key] == simulation["totals"][key]


def test_simulate_other_seed_differs(simulation):
    other = json.loads(engine(*SIMULATE[:-3], "--seed", "4", "--json").stdout)
    assert [r["seed"] for r in other["results"]] != [r["seed"] for r in simulation["results"]]


def test_simulate_prints_the_report_of_its_games(tmp_path):
    """Without --json or --csv, simulate prints what `engine report` prints of its results file."""
    out = tmp_path / "runs.jsonl"
    proc = engine("simulate", TRICK, "--players", "4", "--games", "6", "--seed", "1", "--jobs", "1", "--out", out)
    assert proc.returncode == 0, proc.stderr
    for part in ("4 players: random, random, random, random", "options expert=false",
                 "Win share by seat", "Win share by turn position", "95% interval", "Score by seat",
                 "Game length in decisions", "\nEnded by:\n  last trick  6  100.0%\n"):
        assert part in proc.stdout, part
    assert proc.stdout == engine("report", out).stdout
    again = engine("simulate", TRICK, "--players", "4", "--games", "6", "--seed", "1", "--jobs", "2")
    assert again.stdout == proc.stdout, "the same report without --out, on other processes"


def test_simulate_report_lists_failed_games_with_their_commands(tmp_path):
    rules = tmp_path / "failing.yaml"
    rules.write_text(TINY.replace("          move(c, pile)\n", "          if c.name == \"Amber\":\n"
                                  "              fail(\"Amber may not be played\")\n          move(c, pile)\n"),
                     encoding="utf-8")
    proc = engine("simulate", rules, "--games", "12", "--seed", "1", "--json", cwd=tmp_path)
    failed = [r for r in json.loads(proc.stdout)["results"] if "error" in r]
    assert failed, "the rule fails in some games"
    text = engine("simulate", rules, "--games", "12", "--seed", "1", cwd=tmp_path)
    assert text.returncode == 1
    assert f"{12 - len(failed)} games played, {len(failed)} failed (12 planned)" in text.stdout
    for r in failed:
        assert f"  game {r['game']}: {r['error']}\n    {r['reproduce']}\n" in text.stdout


def test_simulate_stops_games_at_the_decision_cap():
    """A game that reaches --max-decisions stops there, is scored as it stands and is counted
    as ended by "decision cap"; the others end by their rules."""
    proc = engine("simulate", TRICK, "--players", "3", "--games", "3", "--seed", "1", "--max-decisions", "5",
                  "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert [(r["decisions"], r["end_reason"]) for r in report["results"]] == [(5, "decision cap")] * 3
    assert report["totals"]["games_by_end_reason"] == {"decision cap": 3}
    assert all(set(r["scores"]) == {"P1", "P2", "P3"} and r["winners"] for r in report["results"])
    text = engine("simulate", TRICK, "--players", "3", "--games", "3", "--seed", "1", "--max-decisions", "5")
    assert "\nEnded by:\n  decision cap  3  100.0%\n" in text.stdout
    assert "3 game(s) were stopped by the decision cap" in text.stdout
    full = json.loads(engine("simulate", TRICK, "--players", "3", "--games", "3", "--seed", "1", "--json").stdout)
    longest = max(r["decisions"] for r in full["results"])
    mixed = json.loads(engine("simulate", TRICK, "--players", "3", "--games", "3", "--seed", "1",
                              "--max-decisions", str(longest), "--json").stdout)
    assert mixed["results"] == full["results"], "a game that ends on the cap's last decision ends by its rules"


# ------------------------------------------------------------------ bad usage


BAD_USAGE = {
    "too-few-players": (["play", TRICK, "--players", "2", "--seats", "random,random"], ["3, 4, 5", "2"]),
    "too-many-players-simulate": (["simulate", TRICK, "--players", "6", "--games", "1"], ["3, 4, 5"]),
    "unknown-option": (["play", TRICK, "--players", "3", "--seats", "random,random,random",
                        "--option", "nosuch=1"], ["nosuch", "expert", "teams"]),
    "option-near-miss": (["simulate", TRICK, "--players", "3", "--games", "1", "--option", "expret=true"],
                         ["did you mean 'expert'"]),
    "teams-with-3-players": (["play", TRICK, "--players", "3", "--seats", "random,random,random",
                              "--option", "teams=true"], ["teams", "4"]),
    "option-bad-bool": (["simulate", TRICK, "--players", "3", "--games", "1", "--option", "expert=maybe"],
                        ["expert", "maybe"]),
    "option-bad-int": (["simulate", TRICK, "--players", "3", "--games", "1", "--option", "first_leader=x"],
                       ["first_leader", "x"]),
    "option-not-in-values": (["simulate", TRICK, "--players", "3", "--games", "1",
                              "--option", "first_leader=9"], ["first_leader", "9"]),
    "option-without-value": (["play", TRICK, "--players", "3", "--seats", "random,random,random",
                              "--option", "expert"], ["NAME=VALUE"]),
    "seats-wrong-count": (["play", TRICK, "--players", "3", "--seats", "random,random"], ["seat", "3"]),
    "seats-unknown-kind": (["play", TRICK, "--players", "3", "--seats", "random,robot,random"],
                           ["robot", "human", "random"]),
    "seats-misspelt-kind": (["simulate", TRICK, "--players", "3", "--seats", "random,mtcs,random"],
                            ["mtcs", "did you mean 'mcts'"]),
    "seats-bad-parameter": (["simulate", TRICK, "--players", "3", "--seats", "mcts:iteration=5,random,random"],
                            ["iteration", "did you mean 'iterations'"]),
    "simulate-human-seat": (["simulate", TRICK, "--players", "3", "--seats", "human,random,random"],
                            ["no human seats"]),
    "games-zero": (["simulate", TRICK, "--players", "3", "--games", "0"], ["--games"]),
    "max-decisions-zero": (["simulate", TRICK, "--players", "3", "--max-decisions", "0"], ["--max-decisions"]),
    "missing-ruleset": (["play", "nosuch.yaml", "--seats", "random,random"], ["nosuch.yaml"]),
    "ruleset-is-a-directory": (["simulate", "rulesets", "--games", "1"], ["rulesets"]),
}


@pytest.mark.parametrize("name", list(BAD_USAGE))
def test_bad_usage_one_clear_line(name):
    args, words = BAD_USAGE[name]
    proc = engine(*args)
    message = one_line_error(proc)
    for word in words:
        assert word in message, message


@pytest.mark.parametrize("args", [
    ["play", TRICK, "--players", "three"],
    ["simulate", TRICK, "--games", "many"],
    ["play"],
    ["frobnicate"],
])
def test_argument_errors_exit_2(args):
    proc = engine(*args)
    assert proc.returncode == 2
    assert "error" in proc.stderr


def test_play_invalid_ruleset_reports_located_errors(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text(TINY.replace("  shuffle(deck)", "  shufle(deck)"), encoding="utf-8")
    proc = engine("play", bad, "--seats", "random,random")
    assert proc.returncode == 1
    assert re.search(rf"^{re.escape(str(bad))}:\d+:\d+: error: .*did you mean 'shuffle'", proc.stderr, re.M)


# ------------------------------------------------------------------ a person at the terminal


def test_human_garbage_then_valid_numbers(tiny):
    feed = "abc\n\n0\n999\n-1\n1\n1\n1\n1\n"
    proc = engine("play", tiny, "--seats", "human,random", "--seed", "4", input=feed)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "'abc' is not a number" in out
    assert "Please type" in out
    assert "0 is not an option" in out
    assert "999 is not an option" in out
    assert "'-1' is not a number" in out or "-1 is not an option" in out
    # The game went on to the end after the valid numbers.
    assert "Final scores" in out and "Winner(s)" in out
    # Each complaint is followed by the same prompt again, not by a new decision.
    assert out.count("Choose 1-3") == 6, "the 5 bad lines and the good one all answer the first question"


def test_human_choices_are_taken(tiny, tmp_path):
    """The numbers typed are the decisions saved (1-based on screen, 0-based in the save)."""
    save = tmp_path / "h.json"
    proc = engine("play", tiny, "--seats", "human,random", "--seed", "4", "--save", save, input="3\n2\n")
    assert proc.returncode == 0
    decisions = json.loads(save.read_text())["decisions"]
    human = decisions[0::2]  # P1 decides first each round
    assert human[:2] == [2, 1]


def test_human_plays_trick_of_the_rails(tmp_path):
    proc = engine("play", TRICK, "--players", "3", "--seats", "human,random,random", "--seed", "8",
                  input="x\n" + "1\n" * 400)
    assert proc.returncode == 0, proc.stderr
    assert "'x' is not a number" in proc.stdout
    assert "Final scores" in proc.stdout


def test_a_person_plays_against_mcts_and_greedy_bots(tmp_path):
    save = tmp_path / "bots.json"
    proc = engine("play", TRICK, "--players", "3", "--seats", "human,mcts:iterations=10,greedy", "--seed", "8",
                  "--save", save, input="1\n" * 400)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"^\s+P2 \(mcts\)\s+-?\d+", proc.stdout, re.M), proc.stdout
    assert re.search(r"^\s+P3 \(greedy\)\s+-?\d+", proc.stdout, re.M), proc.stdout
    assert json.loads(save.read_text())["seats"] == ["human", "mcts:iterations=10", "greedy"]
    assert "reproduces" in engine("replay", save).stdout


def test_simulate_with_bot_seats_names_them():
    proc = engine("simulate", TRICK, "--players", "3", "--games", "2", "--seed", "1",
                  "--seats", "mcts:iterations=5:depth=0,greedy,random")
    assert proc.returncode == 0, proc.stderr
    assert "3 players: mcts:iterations=5:depth=0, greedy, random\n" in proc.stdout
    assert re.search(r"^  P1  mcts:iterations=5:depth=0  +\d", proc.stdout, re.M), proc.stdout


def test_simulate_help_explains_seats():
    out = engine("simulate", "--help").stdout
    for word in ("greedy", "mcts", "iterations", "FILE.py:CLASS", "MODULE:CLASS"):
        assert word in out


@pytest.mark.parametrize("feed", ["q\n", "quit\n", "Q\n", "abc\nq\n", "1\nq\n"])
def test_human_quits_cleanly(tiny, feed):
    proc = engine("play", tiny, "--seats", "human,random", "--seed", "4", input=feed)
    assert proc.returncode == 0, proc.stderr
    assert "Game stopped" in proc.stdout
    assert "Final scores" not in proc.stdout


@pytest.mark.parametrize("feed", ["", "abc\n", "1\n"])
def test_human_eof_quits_cleanly(tiny, feed):
    proc = engine("play", tiny, "--seats", "human,random", "--seed", "4", input=feed)
    assert proc.returncode == 0, proc.stderr
    assert "Game stopped" in proc.stdout


def test_quit_with_save_then_replay(tiny, tmp_path):
    save = tmp_path / "stopped.json"
    proc = engine("play", tiny, "--seats", "human,random", "--seed", "4", "--save", save, input="1\nq\n")
    assert proc.returncode == 0
    data = json.loads(save.read_text())
    assert "result" not in data and len(data["decisions"]) == 2
    proc = engine("replay", save)
    assert proc.returncode == 0
    assert "not over" in proc.stdout


@pytest.mark.parametrize("feed", ["\u00b2\n", "9" * 5000 + "\n", "1.5\n", "+1\n", "\u0661\u0662\n"],
                         ids=["superscript-two", "5000-digits", "decimal", "plus-sign", "arabic-indic-12"])
def test_human_odd_numbers_get_a_message(tiny, feed):
    """Unusual digits and huge numbers are refused with a message, never a crash."""
    proc = engine("play", tiny, "--seats", "human,random", "--seed", "4", input=feed + "1\n" * 5)
    assert proc.returncode == 0, proc.stderr[-500:]
    assert "Final scores" in proc.stdout


def test_the_last_screen_tells_a_person_all_since_their_last_decision(tmp_path):
    """The final screen of a person's game: every log line after their last choice (the bots'
    last moves, the end), the table as it ended, their own position, then the scores by part
    and the winners."""
    save = tmp_path / "game.json"
    proc = engine("play", TRICK, "--players", "3", "--seats", "human,random,random", "--seed", "2",
                  "--save", save, input="1\n" * 200)
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.rsplit("(? for help): ", 1)[1]
    game, _, _ = replay(save)
    log = view(game, 1, {1: "P1 (human)", 2: "P2 (random)", 3: "P3 (random)"}).log()
    told = last.split("-- since your last decision --\n", 1)[1].split("-- the table at the end --", 1)[0]
    told = [line.strip() for line in told.strip().splitlines() if not line.strip().startswith("Your only option")]
    # The log's last lines, from what came of the person's last choice (with the move the rules
    # then made for them) to the end of the game.
    assert told == log[len(log) - len(told):] and told[0].startswith("P1 (human)") and len(told) > 3
    assert "Your only option: NYC 10 (Play a card to the trick)" in last
    table, results = last.split("-- the table at the end --", 1)[1].split("-- yours --", 1)
    assert re.search(r"^  railway PRR:\s+\S", table, re.M) and re.search(r"^  locomotive PRR:\s+Loco", table, re.M)
    # Their own position (the shares won; the hand played out says nothing), then the scores.
    assert "hand P1" not in results and re.search(r"^  shares P1:\s+\S", results, re.M)
    assert results.index("shares P1") < results.index("Final scores")
    assert re.search(r"^\s+player\s+.*\bscore$", results, re.M) and "Winner(s): P" in results
