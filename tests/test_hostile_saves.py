"""Saves and run files from anyone, and games that are never lost.

A save may come from another player: opening it runs no code, and an edited one is refused
however well its digest was worked out again. A file that is too large or nested too deep is
refused in one line. A game in play is kept: a bad --save is refused before the first decision,
a failing rule saves the game, and a save replaces nothing but a regular file."""
from __future__ import annotations

import io
import json
import os
import re
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from engine.cli import main
from engine.core.jsonfiles import MAX_DEPTH
from engine.game.saves import DIGEST, content_digest, replay, resume

from test_cli import ROOT, TINY, engine, one_line_error


@pytest.fixture
def stopped(tmp_path) -> tuple[Path, dict]:
    """A game of Tiny stopped after two decisions and saved, with its data."""
    rules = tmp_path / "tiny.yaml"
    rules.write_text(TINY, encoding="utf-8")
    save = tmp_path / "stopped.json"
    proc = engine("play", rules, "--seats", "human,random", "--seed", "4", "--save", save, input="1\nq\n")
    assert proc.returncode == 0 and save.is_file()
    return save, json.loads(save.read_text())


def resealed(data: dict, path: Path) -> Path:
    """`data` written to `path` with its digest worked out again, as whoever edits a save can."""
    data[DIGEST] = content_digest(data)
    path.write_text(json.dumps(data))
    return path


# ------------------------------------------------------------------ a save runs no code

AGENT = """\
from pathlib import Path
Path({marker!r}).write_text("ran")


class Agent:
    def __init__(self, seed):
        pass

    def choose(self, view):
        return 0
"""


@pytest.mark.parametrize("kind", ["file", "module", "os"])
def test_a_save_naming_an_agent_of_its_own_runs_no_code(stopped, tmp_path, kind):
    """The save's seat is played by a person instead, and a line says so; the agent's file (or
    module, found in the folder the command runs in) is never imported."""
    save, data = stopped
    marker = tmp_path / "ran.txt"
    (tmp_path / "planted.py").write_text(AGENT.format(marker=str(marker)))
    seat = {"file": f"{tmp_path / 'planted.py'}:Agent", "module": "planted:Agent", "os": "os:system"}[kind]
    data["seats"] = ["human", seat]
    evil = resealed(data, tmp_path / "evil.json")
    proc = engine("play", "--resume", evil, input="q\n", cwd=tmp_path)
    assert proc.returncode == 0 and "Game stopped" in proc.stdout
    assert not marker.exists(), "opening a save ran the code it names"
    warning = proc.stderr.strip()
    assert warning.startswith(f"warning: {evil}: seat 2 '") and "\n" not in warning
    assert "is not a built-in kind; a save runs no code, so P2 is human (or give --seats)" in warning
    assert "P2 (human)" in proc.stdout or "Pass to P" in proc.stdout


def test_a_built_in_seat_of_a_save_is_kept_and_seats_on_the_command_line_win(stopped, tmp_path):
    save, data = stopped
    proc = engine("play", "--resume", save, input="1\n1\n")
    assert proc.returncode == 0 and proc.stderr == "" and "P2 (random)" in proc.stdout
    data["seats"] = ["human", "nosuch.py:Agent"]
    other = resealed(data, tmp_path / "other.json")
    proc = engine("play", "--resume", other, "--seats", "random,greedy")
    assert proc.returncode == 0 and proc.stderr == "" and "P2 (greedy)" in proc.stdout


def test_a_seat_with_parameters_no_bot_has_is_played_by_a_person(stopped, tmp_path):
    save, data = stopped
    data["seats"] = ["random", "mcts:nosuch=1"]
    other = resealed(data, tmp_path / "other.json")
    proc = engine("play", "--resume", other, input="1\n")
    assert proc.returncode == 0 and "P2 (human)" in proc.stdout and "P1 (random)" in proc.stdout
    assert proc.stderr.count("\n") == 1 and "seat 2 'mcts:nosuch=1' is not a built-in kind" in proc.stderr


# ------------------------------------------------------------------ an edited save is refused

def moved_hand(data: dict) -> dict:
    """P2's hand moved into P1's, in the saved state."""
    zones = data["state"]["table"]["zones"]
    zones[1], zones[2] = zones[1] + zones[2], []
    return data


@pytest.mark.parametrize("old", [False, True])
def test_a_save_with_cards_moved_between_hands_is_refused_naming_the_difference(stopped, tmp_path, old):
    """Its digest worked out again (or, in the older format, deleted): resuming used to go on
    from the edited state, P1 with both hands."""
    save, data = stopped
    held = [c for c in replay(save)[0].table.cards]
    moved_hand(data)
    if old:
        data["format"] = "engine-save/2"
        edited = tmp_path / "edited.json"
        edited.write_text(json.dumps({k: v for k, v in data.items() if k != DIGEST}))
    else:
        edited = resealed(data, tmp_path / "edited.json")
    message = one_line_error(engine("play", "--resume", edited, input="1\n1\n"))
    assert message == (f"engine: {edited}: the saved state is not the one its seed and decisions lead to "
                       "(first difference: state.table.zones[1][2]); it is refused")
    assert not any(card.label in message for card in held)  # the place is named, not the cards
    proc = engine("replay", edited)
    assert proc.returncode == 1
    assert "does NOT reproduce: the replayed game differs from the saved state (first at " \
        "state.table.zones[1][2])" in proc.stdout


def test_resume_goes_on_from_the_replayed_game_not_the_saved_state(stopped, tmp_path):
    """A state that a game of this ruleset could be in, but not the one of these decisions:
    the replay is what is played (here it is refused), never the state as written."""
    save, data = stopped
    data["state"]["log"] = data["state"]["log"][:-1]
    edited = resealed(data, tmp_path / "edited.json")
    with pytest.raises(Exception, match=r"first difference: state\.log\[\d+\]"):
        resume(edited)
    game, _, _ = resume(save)
    assert game.snapshot()["table"] == json.loads(save.read_text())["state"]["table"]


# ------------------------------------------------------------------ files too large or too deep

def bounded_engine(*args: object, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """engine, with its memory bounded: a regression that reads /dev/zero whole fails here
    instead of taking the memory of the machine."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))
    proc = subprocess.run([sys.executable, "-m", "engine", *map(str, args)], capture_output=True, text=True,
                          cwd=cwd, preexec_fn=limit, timeout=120)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
@pytest.mark.parametrize("command,words", [
    (["replay"], "/dev/zero: larger than 20000000 bytes; not a save of this engine"),
    (["play", "--resume"], "/dev/zero: larger than 20000000 bytes; not a save of this engine"),
    (["report"], "/dev/zero: not a simulation's results (a line longer than 1048576 bytes"),
])
def test_dev_zero_is_refused_in_one_line(command, words):
    proc = bounded_engine(*command, "/dev/zero")
    assert proc.returncode == 1 and words in one_line_error(proc)


def nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize("command", [["replay"], ["play", "--resume"]])
def test_a_save_nested_deeper_than_the_limit_is_refused_in_one_line(stopped, tmp_path, command):
    """A counter nested 900 deep used to end in a RecursionError."""
    _, data = stopped
    data["state"]["table"]["counters"] = nested(900)
    deep = resealed(data, tmp_path / "deep.json")
    message = one_line_error(engine(*command, deep))
    assert message == f"engine: {deep}: not a save of this engine (it holds values nested more than {MAX_DEPTH} deep)"


def test_a_save_nested_within_the_limit_is_only_an_edited_save(stopped, tmp_path):
    _, data = stopped
    data["state"]["table"]["counters"] = nested(MAX_DEPTH - 4)  # the save's own levels come on top
    edited = resealed(data, tmp_path / "edited.json")
    assert "first difference: state.table.counters" in one_line_error(engine("play", "--resume", edited))


def run_file(tmp_path: Path, last: str) -> Path:
    """A results file of two games of Tiny, its last line replaced by `last`."""
    path = tmp_path / "runs.jsonl"
    rules = tmp_path / "tiny.yaml"
    rules.write_text(TINY, encoding="utf-8")
    assert engine("simulate", rules, "-n", "2", "-g", "2", "--seed", "1", "-j", "1", "--out", path).returncode == 0
    lines = path.read_text().splitlines()
    path.write_text("\n".join(lines[:-1] + [last, lines[-1]]) + "\n")
    return path


@pytest.mark.parametrize("last,words", [
    (json.dumps({"game": 3, "seed": 1, "deep": nested(900)}), f":3: not a game record (values nested more than "
                                                               f"{MAX_DEPTH} deep)"),
    ('{"game": 3, "deep": ' + "[" * 100_000 + "]" * 100_000 + "}", ":3: not a game record (a number too long or "
                                                                "lists nested too deep)"),
    ('{"game": 3, "seed": ' + "9" * 5000 + "}", ":3: not a game record (a number too long"),
    ('{"game": 3, "padding": "' + "x" * (1 << 20) + '"}', ": not a simulation's results (a line longer than"),
])
def test_a_run_file_too_deep_or_too_long_is_refused_in_one_line(tmp_path, last, words):
    path = run_file(tmp_path, last)
    message = one_line_error(engine("report", path))
    assert message.startswith(f"engine: {path}") and words in message
    before = path.read_bytes()
    again = one_line_error(engine("simulate", tmp_path / "tiny.yaml", "-n", "2", "-g", "2", "--seed", "1", "-j", "1",
                                  "--out", path))
    assert again.startswith(f"engine: {path}") and ("not a run file of engine simulate" in again
                                                     or ":3: not a game record; the file is damaged" in again)
    assert path.read_bytes() == before


# ------------------------------------------------------------------ a game is never lost

@pytest.mark.parametrize("where", ["no-folder", "folder", "fifo"])
def test_a_save_path_that_cannot_be_written_is_refused_before_the_game(tmp_path, where):
    """It used to fail with a traceback after the game (or at q), the game lost; and as root,
    --save /dev/full replaced the device with a file."""
    rules = tmp_path / "tiny.yaml"
    rules.write_text(TINY, encoding="utf-8")
    target = tmp_path / "target"
    if where == "no-folder":
        target = tmp_path / "no" / "such" / "game.json"
    elif where == "folder":
        target.mkdir()
    else:
        os.mkfifo(target)
    proc = engine("play", rules, "--seats", "human,random", "--save", target, input="1\n1\n1\n")
    why = {"no-folder": f"there is no folder {tmp_path / 'no' / 'such'}", "folder": "it is a folder",
           "fifo": "it is a device, a pipe or a socket, not a file"}[where]
    assert one_line_error(proc).startswith(f"engine: cannot save to {target}: {why}")
    assert proc.stdout == "", "the game started"
    assert where != "folder" or target.is_dir() and not any(target.iterdir())
    assert where != "fifo" or target.is_fifo()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["tiny.yaml", "target"] if where != "no-folder"
                                                                 else ["tiny.yaml"])


def test_a_save_through_a_symbolic_link_writes_the_file_it_names(stopped, tmp_path):
    save, _ = stopped
    kept = tmp_path / "kept.json"
    kept.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(kept)
    proc = engine("play", "--resume", save, "--seats", "random,random", "--save", link)
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and json.loads(kept.read_text())["result"]


FAILING = textwrap.dedent("""\
    game: {name: Failing, players: [2]}
    zones: {z: {}}
    flow: |
      let a = choose(1, ["a", "b"], "First?")
      let b = choose(2, ["c", "d"], "Second?")
      let x = 10 // 0
    scoring:
      score: 0
    """)


def test_a_rule_error_during_play_saves_the_game_with_the_error(tmp_path):
    """It used to exit without saving, even with --save."""
    rules = tmp_path / "failing.yaml"
    rules.write_text(FAILING)
    save = tmp_path / "game.json"
    proc = engine("play", rules, "--seats", "human,random", "--seed", "3", "--save", save, input="1\n")
    error = one_line_error(proc)
    assert error == f"{rules}:6:11: error: division by zero (in flow)"
    assert "The game stopped at decision 2, on an error." in proc.stdout
    assert f"Saved to {save}; continue it with: engine play --resume {save}" in proc.stdout
    data = json.loads(save.read_text())
    assert data["error"] == error and len(data["decisions"]) == 1  # as it was before the failing decision
    proc = engine("replay", save)
    assert proc.returncode == 0 and "replayed 1 decisions; the game is not over" in proc.stdout
    proc = engine("play", "--resume", save, "--seats", "random,random")
    assert f"It was saved after an error: {error}" in proc.stdout
    assert one_line_error(proc) == error


def test_a_rule_error_without_save_says_so_in_one_line(tmp_path):
    rules = tmp_path / "failing.yaml"
    rules.write_text(FAILING)
    proc = engine("play", rules, "--seats", "random,random", "--seed", "3")
    assert "division by zero" in one_line_error(proc) and "Saved" not in proc.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["failing.yaml"]


@pytest.mark.parametrize("seats,typed", [("random,random", ""), ("human,random", "q\n")])
def test_a_save_that_fails_after_the_game_says_why_in_one_line(tmp_path, monkeypatch, capsys, seats, typed):
    """The file was fine before the game, and the disk filled up during it: at the end (or at
    q) the run says why in one line and exits 1, where it used to end in a traceback."""
    rules = tmp_path / "tiny.yaml"
    rules.write_text(TINY, encoding="utf-8")
    save = tmp_path / "game.json"

    def full(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "replace", full)
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    assert main(["play", str(rules), "--seats", seats, "--seed", "1", "--save", str(save)]) == 1
    err = capsys.readouterr().err
    assert err == f"engine: cannot save to {save}: No space left on device\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tiny.yaml"]  # nor a temporary file left


@pytest.mark.parametrize("how", ["q", "rule error"])
def test_at_a_terminal_a_save_that_cannot_be_written_is_asked_for_again(tmp_path, how):
    """Stopping with q, or on a rule's error, offers to save; a name that cannot be written says
    why and asks again, where it used to end in a traceback and lose the game."""
    pexpect = pytest.importorskip("pexpect")
    rules = tmp_path / "rules.yaml"
    rules.write_text(TINY if how == "q" else FAILING, encoding="utf-8")
    save = tmp_path / "game.json"
    child = pexpect.spawn(sys.executable, ["-m", "engine", "play", str(rules), "--seats", "human,random",
                                           "--seed", "4", "--plain"], cwd=str(ROOT), timeout=60,
                          env={"PATH": "/usr/bin:/bin", "TERM": "dumb", "LANG": "C.UTF-8"})
    try:
        child.expect(r"Choose 1-\d \(\? for help\): ")
        child.sendline("q" if how == "q" else "1")
        child.expect(r"File name \(empty: don't save\): ")
        child.sendline(str(tmp_path))  # a folder
        child.expect(re.escape(f"cannot save to {tmp_path}: it is a folder; give a file name such as game.json"))
        child.expect(r"File name \(empty: don't save\): ")
        child.sendline(str(save))
        child.expect(re.escape(f"Saved to {save}; continue it with: engine play --resume {save}"))
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert b"Traceback" not in child.before
    assert child.exitstatus == (0 if how == "q" else 1)
    data = json.loads(save.read_text())
    assert ("error" in data) == (how == "rule error") and data["seats"] == ["human", "random"]
